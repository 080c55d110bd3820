"""Round trip per invocation through the official Runtime Interface Emulator, for two bootstraps
side by side (the Swift runtime and the C floor), plus each bootstrap's peak RSS (VmHWM).

Both emulators run at once on 127.0.0.1; invocations alternate between them one by one over
kept-alive HTTP connections, so drift on the machine hits both alike. Bounded: N invocations
each (plus a warm-up) and a wall-clock cap.
usage: python -m signin_tools.bench.runtime_roundtrip N LABEL=EXECUTABLE LABEL=EXECUTABLE
prints per label: median_ms p99_ms vmhwm_kb
"""
import http.client
import os
import sys
import time
from pathlib import Path

from ..standins import Emulator
from ..standins.process import run_main

CAP_SECONDS = 300


def child_pids(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def vmhwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1


def floor_hwm_kb(executable: str, n: int, log_path: str) -> int:
    """The VmHWM (kB) of `executable` (the C loop) under the official emulator after `n` echo
    invocations: the memory floor the functions' peak RSS is printed beside."""
    emu = Emulator(executable, env={"AWS_LAMBDA_FUNCTION_NAME": "c-floor"}, log_path=log_path).start()
    try:
        for _ in range(n):
            status, _body = emu.invoke_raw(b'{"mode":"echo","message":"hello","n":12345}', timeout=30)
            if status != 200:
                raise SystemExit(f"the C floor answered HTTP {status}")
        return max((vmhwm_kb(k) for k in child_pids(emu.proc.pid)), default=-1)
    finally:
        emu.stop()


def main() -> int:
    n = int(sys.argv[1])
    targets = [a.split("=", 1) for a in sys.argv[2:]]
    out_dir = Path(os.environ.get("BENCH_OUT", "bench-out"))
    out_dir.mkdir(exist_ok=True)
    emus, conns, times = [], [], []
    try:
        for label, exe in targets:
            emu = Emulator(exe, env={"AWS_LAMBDA_FUNCTION_NAME": label}, log_path=str(out_dir / f"rt-{label}.log")).start()
            emus.append(emu)
            conns.append(http.client.HTTPConnection("127.0.0.1", emu.port, timeout=30))
            times.append([])
        payload = b'{"mode":"echo","message":"hello","n":12345}'

        def invoke(i: int) -> float:
            c = conns[i]
            t0 = time.perf_counter()
            c.request("POST", Emulator.INVOKE_PATH, body=payload)
            r = c.getresponse()
            body = r.read()
            dt = (time.perf_counter() - t0) * 1000
            if r.status != 200 or body != payload:
                raise SystemExit(f"{targets[i][0]}: HTTP {r.status} {body[:200]!r}")
            return dt

        for _ in range(20):  # warm-up: init, first connections
            for i in range(len(targets)):
                invoke(i)
        start = time.monotonic()
        for _ in range(n):
            if time.monotonic() - start > CAP_SECONDS:
                raise SystemExit(f"round-trip bench exceeded {CAP_SECONDS}s")
            for i in range(len(targets)):
                times[i].append(invoke(i))
        for i, (label, _) in enumerate(targets):
            kids = child_pids(emus[i].proc.pid)
            hwm = max((vmhwm_kb(k) for k in kids), default=-1)
            t = sorted(times[i])
            med = (t[len(t) // 2] + t[(len(t) - 1) // 2]) / 2
            p99 = t[min(len(t) - 1, int(round(0.99 * len(t))) - 1)]
            print(f"{label} {med:.3f} {p99:.3f} {hwm}")
    finally:
        for c in conns:
            c.close()
        for emu in emus:
            emu.stop()
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))

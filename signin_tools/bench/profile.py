"""Driver for scripts/bench.d/52-profile (see there): where a warm sign-in's and a warm refresh's work
goes, counted rather than timed, so that a busy machine does not move the figures:

- syscalls per operation: `strace -c -f -p` on the function's process over N_STRACE operations
  (the whole table, and the calls that open and wait: connect, poll, close);
- instructions per operation: the function under `valgrind --tool=callgrind`, statistics zeroed
  after the warm-up (`callgrind_control -z`), dumped after N_CALLGRIND operations; user space of the
  whole process (libcurl, libcrypto and libc included), symbols only (valgrind 3.19 cannot read
  the toolchain's DWARF 5).

Both against the same local moto as 50-accounts. The callgrind output stays in bench-out/profile for
`callgrind_annotate`.
"""
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

from ..repo import ROOT
from ..standins import LocalDeployment
from ..standins.process import run_main, start_process_group, stop_process_group
from .soak import child_pid

BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])
N_STRACE = int(os.environ.get("N_STRACE", "200"))
N_CALLGRIND = int(os.environ.get("N_CALLGRIND", "50"))
WARMUP = 20
OUT = ROOT / "bench-out" / "profile"
FUNCTIONS = ("auth-signin", "auth-refresh")


class Operations:
    """Warm sign-ins of one existing account, and refreshes of one session (rotating its token)."""

    def __init__(self, local):
        self.local = local
        self.sub = f"001234.{uuid.uuid4().hex}.0052"
        answer = self.signin()
        self.token = answer["data"]["refreshToken"]

    def signin(self) -> dict:
        token = self.local.idp.apple_token(self.sub)
        answer = self.local.emulators["auth-signin"].invoke({"provider": "apple", "idToken": token})
        assert answer["success"], answer.get("error")
        return answer

    def refresh(self) -> dict:
        answer = self.local.emulators["auth-refresh"].invoke({"refreshToken": self.token})
        assert answer["success"], answer.get("error")
        self.token = answer["data"]["refreshToken"]
        return answer

    def run(self, function: str, count: int) -> None:
        step = self.signin if function == "auth-signin" else self.refresh
        for _ in range(count):
            step()


def function_pid(local, function: str, executable: str) -> int:
    pid = child_pid(local.emulators[function].proc.pid, executable)
    if pid is None:
        raise SystemExit(f"52-profile: no {executable} process under {function}'s emulator")
    return pid


def strace_counts(local, ops: Operations, function: str) -> dict[str, int]:
    """{syscall: calls} over N_STRACE operations, and "total"."""
    pid = function_pid(local, function, str(BIN / function))
    out = OUT / f"{function}.strace"
    tracer = start_process_group(["strace", "-c", "-f", "-o", str(out), "-p", str(pid)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)  # strace attaches before its first line; the attach itself is not counted
        ops.run(function, N_STRACE)
    finally:
        tracer.send_signal(2)  # SIGINT: detach and write the summary
        try:
            tracer.wait(timeout=10)
        finally:
            stop_process_group(tracer)
    counts = {}
    for line in out.read_text().splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[-1] != "syscall" and fields[0][0].isdigit():
            counts[fields[-1]] = int(fields[3])
    return counts


def callgrind_instructions(ops: Operations, local, function: str) -> int:
    """Instructions (Ir) over N_CALLGRIND operations after the warm-up."""
    pid = function_pid(local, function, callgrind_tool())
    subprocess.run(["callgrind_control", "-z", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    ops.run(function, N_CALLGRIND)
    before = set(OUT.glob(f"{function}.callgrind.*"))
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    dumps = sorted(set(OUT.glob(f"{function}.callgrind.*")) - before)
    if not dumps:
        raise SystemExit("52-profile: callgrind wrote no dump")
    totals = re.search(r"^(?:totals|summary): (\d+)", dumps[-1].read_text(errors="replace"), re.M)
    return int(totals.group(1))


def callgrind_tool() -> str:
    """The executable valgrind runs as (what /proc/<pid>/exe of a process under callgrind names)."""
    libexec = subprocess.run(["valgrind", "--tool=none", "--version"], capture_output=True, text=True)
    for base in ("/usr/libexec/valgrind", "/usr/lib/x86_64-linux-gnu/valgrind", "/usr/lib/valgrind"):
        tool = Path(base) / "callgrind-amd64-linux"
        if tool.exists():
            return str(tool)
    raise SystemExit(f"52-profile: callgrind not found (valgrind {libexec.stdout.strip()})")


def wrapped_bin(directory: Path) -> Path:
    """A directory of scripts named like the functions that run each under callgrind, on a copy
    without debug information (symbols kept: valgrind 3.19 gives up on DWARF 5)."""
    directory.mkdir(parents=True, exist_ok=True)
    for function in FUNCTIONS:
        copy = directory / f"{function}.symbols"
        subprocess.run(["objcopy", "--strip-debug", str(BIN / function), str(copy)], check=True, timeout=120)
        script = directory / function
        script.write_text("#!/bin/sh\n"
                          f"exec valgrind --tool=callgrind --callgrind-out-file={OUT}/{function}.callgrind.%p "
                          f"--dump-instr=no --compress-strings=no {copy} \"$@\"\n")
        script.chmod(0o755)
    return directory


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    logs = ROOT / "bench-out" / "profile-logs"
    with LocalDeployment(BIN, log_dir=logs, functions=FUNCTIONS) as local:
        ops = Operations(local)
        for function in FUNCTIONS:
            ops.run(function, WARMUP)
        syscalls = {f: strace_counts(local, ops, f) for f in FUNCTIONS}
    with LocalDeployment(wrapped_bin(OUT / "bin"), log_dir=logs, functions=FUNCTIONS) as local:
        ops = Operations(local)
        instructions = {}
        for function in FUNCTIONS:
            ops.run(function, WARMUP)
            instructions[function] = callgrind_instructions(ops, local, function)

    print(f"counted per warm operation against local moto: syscalls over {N_STRACE} (strace -c), "
          f"instructions over {N_CALLGRIND} (callgrind, user space, whole process)")
    for function, name in zip(FUNCTIONS, ("sign-in", "refresh")):
        calls = syscalls[function]
        per = {k: v / N_STRACE for k, v in calls.items()}
        top = ", ".join(f"{k} {v:.1f}" for k, v in sorted(per.items(), key=lambda kv: -kv[1]) if k != "total")
        print(f"{name:8s} instructions {instructions[function] / N_CALLGRIND:>12,.0f}   syscalls {per.get('total', 0):6.1f}"
              f"   (connect {per.get('connect', 0):.1f}, poll {per.get('poll', 0):.1f}, close {per.get('close', 0):.1f})")
        print(f"          {top}")


if __name__ == "__main__":
    sys.exit(run_main(main))

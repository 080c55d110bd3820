"""Small helpers the bench drivers share."""
import re
import sys
import time


def network_lines(log_text: str, since: int = 0) -> list[tuple[int, int]]:
    """(requests, rounds) of every `network requests=… rounds=…` debug line the functions logged
    after offset `since` of their log."""
    found = re.findall(r"network requests=(\d+) rounds=(\d+)", log_text[since:])
    return [(int(a), int(b)) for a, b in found]


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def timed(fn, n):
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def run_driver(argv, argc: int, usage: str, measure, report, out) -> int:
    """The drivers that wrap a release bench binary: run it (`measure`), keep its raw figures in
    `out/raw.txt`, and print them beside their floor (`report`)."""
    if len(argv) != argc:
        sys.exit(usage)
    status, raw = measure(*argv)
    out.mkdir(parents=True, exist_ok=True)
    (out / "raw.txt").write_text(raw)
    if status != 0:
        return status
    report(raw)
    return 0

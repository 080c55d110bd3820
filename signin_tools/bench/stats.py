"""Small helpers the bench drivers share."""
import re
import time
from pathlib import Path


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


def process_cpu_ns(pid: int) -> int:
    """The CPU time `pid` has used, user and kernel, every thread, in ns (/proc/<pid>/task/*/schedstat:
    the scheduler's own count, exact where /proc/<pid>/stat has 10 ms ticks)."""
    return sum(int((task / "schedstat").read_text().split()[0]) for task in Path(f"/proc/{pid}/task").iterdir())


def timed_cpu(fn, n, cpu_ns):
    """`timed(fn, n)`, and the CPU that `cpu_ns()` counted per call, in ms."""
    start = cpu_ns()
    times = timed(fn, n)
    return times, (cpu_ns() - start) / n / 1e6

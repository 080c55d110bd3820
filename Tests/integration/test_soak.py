"""The short soak (issue 14; scripts/bench.d/60-soak runs the long one): SOAK_CI_N invocations
(2,000) on one warm process of each function, the debug executables under the official emulator
against moto, the mix of signin_tools/bench/soak.py with three quarters of the steps turned into bad input
(refusals do not reach S3, which keeps this within its time while every path still runs). Asserts
only on leaks, measured on the function process itself (/proc/<pid>) after warm-up against the end:

- open file descriptors back to the warm-up count, ± FD_TOLERANCE (curl's connection pool may hold
  one more or one fewer connection at either moment);
- VmRSS growth below RSS_BOUND_KB. Measured (docs/decisions/tests-and-tools.md, "Soak"): after warm-up the three
  processes grow 0.03-0.45 MB over 2,000 invocations (data-driven high-water, not count); a leak of one
  request's buffers (≥ 1 KiB an invocation) adds ≥ 2 MB here.

Latency is printed, not asserted (a bench figure, not a test). Bounded: SOAK_CI_MAX_SECONDS."""
import os

from conftest import BUILD_DIR
from signin_tools.bench import soak

N = int(os.environ.get("SOAK_CI_N", "2000"))
WARMUP = 200
FD_TOLERANCE = 2
RSS_BOUND_KB = 2048


def test_a_warm_process_of_each_function_leaks_no_memory_or_descriptors(tmp_path):
    result = soak.run(BUILD_DIR, N, WARMUP, samples=4, log_dir=tmp_path, extra_refusals=0.75,
                      max_seconds=float(os.environ.get("SOAK_CI_MAX_SECONDS", "400")))
    soak.report(result)  # shown when the test fails (or with -s)
    for fn, r in result["functions"].items():
        start, end = r["samples"][0][1], r["samples"][-1][1]
        assert abs(end["fds"] - start["fds"]) <= FD_TOLERANCE, f"{fn}: fds {start['fds']} after warm-up, {end['fds']} at the end"
        grown = end["VmRSS"] - start["VmRSS"]
        assert grown < RSS_BOUND_KB, f"{fn}: VmRSS grew {grown} kB over {N} invocations after warm-up"

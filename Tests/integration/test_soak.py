"""The short soak (issue 14; scripts/bench.d/60-soak runs the long one): SOAK_CI_N invocations
(2,000) on one warm process of each function, the debug executables under the official emulator
against moto, the mix of signin_tools/bench/soak.py with three quarters of the steps turned into bad input
(refusals do not reach S3, which keeps this within its time while every path still runs). Asserts
only on leaks, measured on the function process itself (/proc/<pid>) after warm-up against the end:

- descriptors other than sockets exactly at the warm-up count, and sockets never above SOCKET_BOUND:
  moto keeps connections alive as S3 does, so the function's curl pool holds as many as its busiest
  round needed so far (a sign-up's overlapped writes), up to CURLMOPT_MAXCONNECTS (16, CurlHTTP's
  HTTPClient), beside the Runtime API's connection and curl's two wake-up socket pairs (4). A leak
  of one descriptor an invocation passes either bound within the first few dozen;
- VmRSS growth below RSS_BOUND_KB. Measured (docs/decisions/tests-and-tools.md, "Soak"): after warm-up the three
  processes grow 0.03-0.45 MB over 2,000 invocations (data-driven high-water, not count); a leak of one
  request's buffers (≥ 1 KiB an invocation) adds ≥ 2 MB here.

Latency is printed, not asserted (a bench figure, not a test). Bounded: SOAK_CI_MAX_SECONDS."""
import os

from conftest import BUILD_DIR
from signin_tools.bench import soak

N = int(os.environ.get("SOAK_CI_N", "2000"))
WARMUP = 200
SOCKET_BOUND = 16 + 1 + 4
RSS_BOUND_KB = 2048


def test_a_warm_process_of_each_function_leaks_no_memory_or_descriptors(tmp_path):
    result = soak.run(BUILD_DIR, N, WARMUP, samples=4, log_dir=tmp_path, extra_refusals=0.75,
                      max_seconds=float(os.environ.get("SOAK_CI_MAX_SECONDS", "400")))
    soak.report(result)  # shown when the test fails (or with -s)
    for fn, r in result["functions"].items():
        start, end = r["samples"][0][1], r["samples"][-1][1]
        others = [s["fds"] - s["sockets"] for _, s in r["samples"]]
        assert set(others) == {others[0]}, f"{fn}: descriptors other than sockets, at each sample: {others}"
        sockets = [s["sockets"] for _, s in r["samples"]]
        assert max(sockets) <= SOCKET_BOUND, f"{fn}: sockets at each sample {sockets}, above {SOCKET_BOUND}"
        grown = end["VmRSS"] - start["VmRSS"]
        assert grown < RSS_BOUND_KB, f"{fn}: VmRSS grew {grown} kB over {N} invocations after warm-up"

"""The Swift micro-benchmarks (Benchmarks/, ordo-one/benchmark) as the bench drivers read them: runs
`swift package benchmark` for the benchmarks whose names match a regular expression, exported as
percentile tables (bench-out/micro), and returns each benchmark's median per metric.

    from signin_tools.bench.micro import run_micro
    results = run_micro("token-verify-.*|rsa2048-.*")
    results["token-verify-warm-jwks-cache"]["wallClock"]   # µs, median
    results["token-verify-warm-jwks-cache"]["mallocCountTotal"]

Bounded: each benchmark runs for at most its configured time (Benchmarks/SignInBenchmarks), the whole
call at most 30 minutes (a first build of the package and its dependencies included).
"""
import os
import shutil
import subprocess
import sys

from ..repo import ROOT
from ..standins.process import start_process_group, stop_process_group

PACKAGE = ROOT / "Benchmarks"
OUT = ROOT / "bench-out" / "micro"

METRICS = {"Time (wall clock)": "wallClock", "Malloc (total)": "mallocCountTotal", "Instructions": "instructions"}


def run_micro(pattern: str, env: dict | None = None) -> dict[str, dict[str, float]]:
    """{benchmark name: {metric: median}} for the benchmarks whose whole name matches the regular
    expression `pattern`; wall clock in µs.
    `env` is added to the benchmarks' environment (SIGNIN_BENCH_AWS, see Benchmarks/SignInBenchmarks)."""
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    # Its own process group, stopped whole however the driver ends (the plugin runs BenchmarkTool,
    # which runs the benchmark executable).
    run = start_process_group(
        ["swift", "package", "--allow-writing-to-directory", str(OUT), "benchmark", "--filter", pattern,
         "--format", "histogramPercentiles", "--path", str(OUT), "--time-units", "microseconds", "--no-progress"],
        cwd=PACKAGE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    try:
        stdout, stderr = run.communicate(timeout=1800)
    finally:
        stop_process_group(run)
    if run.returncode != 0:
        sys.stderr.write(stdout[-4000:] + stderr[-4000:])
        sys.exit(f"the micro-benchmarks failed (swift package benchmark, exit {run.returncode})")
    results: dict[str, dict[str, float]] = {}
    for path in OUT.glob("*.histogram.percentiles.tsv"):
        lines = path.read_text().splitlines()
        header = lines[0].split("\t")[1]
        metric = next((key for text, key in METRICS.items() if header.startswith(text)), None)
        if metric is None:
            continue
        median = next(float(v) for p, v in (line.split("\t") for line in lines[1:]) if p == "50")
        name = benchmark_name(path.name)
        results.setdefault(name, {})[metric] = median
    return results


def benchmark_name(file_name: str) -> str:
    """The benchmark's name from its exported file's: "<baseline>.<target>.<name>.<metric>.histogram.
    percentiles.tsv" (the suite's names hold no dot, space or slash)."""
    return file_name.split(".")[2]

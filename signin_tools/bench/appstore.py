"""Driver for scripts/bench.d/40-appstore (see there): signs a transaction with the App Store-shaped
test PKI, runs the release appstore-bench on it, keeps appstore-bench's raw figures in
bench-out/appstore/raw.txt, and prints them beside their floor.

usage: python -m signin_tools.bench.appstore APPSTORE_BENCH SECONDS
"""
import os
import subprocess
import sys

from ..repo import ROOT
from ..standins.appstore_pki import AppStorePKI
from .stats import run_driver
from ..standins.process import run_main

OUT = ROOT / "bench-out" / "appstore"


def measure(bench: str, seconds: str) -> tuple[int, str]:
    pki = AppStorePKI()
    jws = pki.sign({"kind": "transaction"})
    run = subprocess.run([bench, pki["root"].pem, AppStorePKI.BUNDLE_ID, jws, seconds],
                         capture_output=True, text=True, timeout=100)
    sys.stderr.write(run.stderr)
    return run.returncode, run.stdout


def fields(raw: str, name: str) -> list[str]:
    """The values on the first line that starts with `name `."""
    for line in raw.splitlines():
        if line.startswith(f"{name} "):
            return line.split()[1:]
    sys.exit(f"40-appstore: appstore-bench printed no {name!r} line (see {OUT / 'raw.txt'})")


def report(raw: str) -> None:
    warm, warm_rounds = fields(raw, "warm")[:2]
    uncached, uncached_rounds = fields(raw, "uncached")[:2]
    chain = int(fields(raw, "chain")[0])
    floor = int(fields(raw, "floor")[0])
    warm, uncached = int(warm), int(uncached)
    print(f"signed-transaction verification, one thread (of {os.cpu_count()} cores), best of 3 rounds")
    print(f"  full verify, cached  {warm:8d} /s   {1e6 / warm:6.1f} us each   (target >= 5000 /s per core; {warm_rounds})")
    print(f"  ES256 verify only    {floor:8d} /s   {1e6 / floor:6.1f} us each   (floor: libcrypto, same key and signature)")
    print(f"  share of the floor   {100 * warm / floor:7.0f} %")
    print(f"  full verify, uncached{uncached:7d} /s   {1e6 / uncached:6.1f} us each   ({uncached_rounds})")
    print(f"  chain alone          {chain:8d} /s   {1e6 / chain:6.1f} us each   (two parses, X509_verify_cert: two P-384 checks)")
    print(f"  the cache's gain     {warm / uncached:7.1f} x")


def main(argv: list[str]) -> int:
    return run_driver(argv, 2, __doc__, measure, report, OUT)


if __name__ == "__main__":
    sys.exit(run_main(main, sys.argv[1:]))

"""Driver for scripts/bench.d/40-appstore (see there): the App Store signed-data verifier's
micro-benchmarks (Benchmarks/, `signin_tools.bench.micro`), beside their floor measured in the same run.

usage: python -m signin_tools.bench.appstore
"""
import os
import sys

from ..standins.process import run_main
from .micro import run_micro

CACHED, WALKED = "appstore-transaction-chain-cached", "appstore-transaction-chain-walked"
FLOOR = "es256-verify-floor-of-cached-transaction"


def main() -> int:
    r = run_micro("appstore-transaction-.*|es256-verify-.*")
    cached, walked, floor = r[CACHED], r[WALKED], r[FLOOR]
    print(f"signed-transaction verification, one thread (of {os.cpu_count()} cores), medians")
    print(f"  full verify, cached  {cached['wallClock']:8.1f} us   {1e6 / cached['wallClock']:8.0f} /s   "
          f"{cached['mallocCountTotal']:5.0f} mallocs   (target >= 5000 /s per core)")
    print(f"  ES256 verify only    {floor['wallClock']:8.1f} us   {1e6 / floor['wallClock']:8.0f} /s   "
          f"{floor['mallocCountTotal']:5.0f} mallocs   (floor: libcrypto, same key and signature)")
    print(f"  share of the floor   {100 * floor['wallClock'] / cached['wallClock']:7.0f} %")
    print(f"  full verify, walked  {walked['wallClock']:8.1f} us   {1e6 / walked['wallClock']:8.0f} /s   "
          f"{walked['mallocCountTotal']:5.0f} mallocs   (X509_verify_cert every time)")
    print(f"  the cache's gain     {walked['wallClock'] / cached['wallClock']:7.1f} x")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))

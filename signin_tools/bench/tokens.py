"""Driver for scripts/bench.d/30-tokens (see there): the token verifier's micro-benchmarks
(Benchmarks/, `signin_tools.bench.micro`), each beside its floor measured in the same run.

usage: python -m signin_tools.bench.tokens
"""
import sys

from ..standins.process import run_main
from .micro import run_micro

WARM, RSA = "token-verify-warm-jwks-cache", "rsa2048-verify-floor-of-token-verify"
COLD, GET = "token-verify-cold-new-client-keys-fetched", "jwks-get-new-client-floor-of-cold-verify"


def main() -> int:
    r = run_micro("token-verify-.*|rsa2048-.*|jwks-get-.*")
    warm, rsa, cold, get = (r[name] for name in (WARM, RSA, COLD, GET))
    print("warm verification, one thread, JWKS cached (medians; strict parse, RS256, every claim rule)")
    print(f"  full verify          {warm['wallClock']:8.1f} us   {1e6 / warm['wallClock']:8.0f} /s   "
          f"{warm['mallocCountTotal']:5.0f} mallocs   (target >= 15000 /s)")
    print(f"  RSA-2048 verify only {rsa['wallClock']:8.1f} us   {1e6 / rsa['wallClock']:8.0f} /s   "
          f"{rsa['mallocCountTotal']:5.0f} mallocs   (floor: libcrypto, same key and signature)")
    print(f"  share of the floor   {100 * rsa['wallClock'] / warm['wallClock']:7.0f} %")
    print("\ncold verification: new HTTP client, empty cache, JWKS fetched on a new loopback connection (medians)")
    print(f"  verify incl. fetch   {cold['wallClock'] / 1000:8.3f} ms   {cold['mallocCountTotal']:5.0f} mallocs")
    print(f"  JWKS GET alone       {get['wallClock'] / 1000:8.3f} ms   {get['mallocCountTotal']:5.0f} mallocs   "
          "(floor: the same client setup and server)")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))

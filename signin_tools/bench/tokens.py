"""Driver for scripts/bench.d/30-tokens (see there): runs the release token-bench against the
loopback test IdP (its tokens and JWKS), keeps token-bench's raw figures in
bench-out/tokens/raw.txt, and prints them beside their floors.

usage: python -m signin_tools.bench.tokens TOKEN_BENCH WARM_SECONDS COLD_RUNS
"""
import subprocess
import sys

from ..repo import ROOT
from ..standins import IdentityProvider
from ..standins.idp import APPLE_AUDIENCE
from .stats import run_driver
from ..standins.process import run_main

OUT = ROOT / "bench-out" / "tokens"


def measure(bench: str, seconds: str, runs: str) -> tuple[int, str]:
    """token-bench's exit status and its figures, plus how many JWKS fetches the IdP served."""
    with IdentityProvider() as idp:
        token = idp.apple_token("001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234", lifetime=3600, nonce="bench-nonce")
        run = subprocess.run([bench, idp.apple_jwks_url, APPLE_AUDIENCE, token, seconds, runs],
                             capture_output=True, text=True, timeout=240)
        sys.stderr.write(run.stderr)
        return run.returncode, f"{run.stdout}fetches {idp.fetches['apple']}\n"


def fields(raw: str, name: str) -> list[str]:
    """The values on the first line that starts with `name `."""
    for line in raw.splitlines():
        if line.startswith(f"{name} "):
            return line.split()[1:]
    sys.exit(f"30-tokens: token-bench printed no {name!r} line (see {OUT / 'raw.txt'})")


def report(raw: str) -> None:
    warm, warm_rounds = fields(raw, "warm")[:2]
    floor = fields(raw, "floor")[0]
    cold_med, cold_p90, runs = fields(raw, "cold")[:3]
    get_med, get_p90 = fields(raw, "get")[:2]
    fetches = fields(raw, "fetches")[0]
    warm, floor, runs, fetches = int(warm), int(floor), int(runs), int(fetches)

    print(f"warm verification, one thread, JWKS cached (best of 3 rounds: {warm_rounds} /s)")
    print(f"  full verify          {warm:8d} /s   {1e6 / warm:6.1f} us each   (target >= 15000 /s)")
    print(f"  RSA-2048 verify only {floor:8d} /s   {1e6 / floor:6.1f} us each   (floor: libcrypto, same key and signature)")
    print(f"  share of the floor   {100 * warm / floor:7.0f} %")
    print(f"\ncold verification: new HTTP client, empty cache, JWKS from loopback (median of {runs}; p90)")
    print(f"  verify incl. fetch   {int(cold_med) / 1000:8.3f} ms   p90 {int(cold_p90) / 1000:6.3f} ms")
    print(f"  JWKS GET alone       {int(get_med) / 1000:8.3f} ms   p90 {int(get_p90) / 1000:6.3f} ms   (floor: same client setup, same server)")
    print(f"  JWKS fetches served  {fetches:8d}      (1 warm-up + 1 floor + {runs} cold + {runs} GET-only; none from the warm loop)")


def main(argv: list[str]) -> int:
    return run_driver(argv, 3, __doc__, measure, report, OUT)


if __name__ == "__main__":
    sys.exit(run_main(main, sys.argv[1:]))

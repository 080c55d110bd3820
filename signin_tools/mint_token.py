"""scripts/mint-token apple|google SUB [--expired] [--nonce RAW] — prints an ID token from the LOCAL
test issuer (keys kept in .tmp/local-idp, never real ones), shaped as Apple or Google send them, for
the local stand-ins that scripts/invoke and scripts/demo start."""
import sys
import time

from .standins import persistent_idp


def main(args: list[str]) -> None:
    if len(args) < 2 or args[0] not in ("apple", "google"):
        sys.exit("usage: scripts/mint-token apple|google SUB [--expired] [--nonce RAW]")
    provider, sub = args[0], args[1]
    now = int(time.time()) - (7200 if "--expired" in args else 0)
    nonce = args[args.index("--nonce") + 1] if "--nonce" in args else None
    idp = persistent_idp()
    print(idp.apple_token(sub, now=now, nonce=nonce) if provider == "apple" else idp.google_token(sub, now=now, nonce=nonce))


if __name__ == "__main__":
    main(sys.argv[1:])

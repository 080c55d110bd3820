"""scripts/mint-token apple|google|firebase SUB [--expired] [--nonce RAW] — prints an ID token from
the LOCAL test issuer (keys kept in .tmp/local-idp, never real ones), shaped as Apple, Google or
Firebase send them, for the local stand-ins that scripts/invoke and scripts/demo start."""
import sys
import time

from .standins import persistent_idp


def main(args: list[str]) -> None:
    if len(args) < 2 or args[0] not in ("apple", "google", "firebase"):
        sys.exit("usage: scripts/mint-token apple|google|firebase SUB [--expired] [--nonce RAW]")
    provider, sub = args[0], args[1]
    now = int(time.time()) - (7200 if "--expired" in args else 0)
    nonce = args[args.index("--nonce") + 1] if "--nonce" in args else None
    idp = persistent_idp()
    if provider == "firebase":
        # Firebase's own tokens carry no nonce; --nonce adds the claim anyway (to try the rule).
        print(idp.firebase_token(sub, now=now, **({"nonce": nonce} if nonce else {})))
    else:
        mint = idp.apple_token if provider == "apple" else idp.google_token
        print(mint(sub, now=now, nonce=nonce))


if __name__ == "__main__":
    main(sys.argv[1:])

"""Fixtures for the Swift micro-benchmarks (Benchmarks/, on ordo-one/benchmark), made when they start by
the project's independent test issuers (Python ``cryptography``): no key is committed, and tokens are
fresh. Prints one JSON object:

  apple     ``jwks`` (the test IdP's Apple key set, as a document), ``audience``, ``subject`` and
            ``token`` (an Apple ID token for that subject, valid for an hour)
  appstore  ``root_pem``, ``bundle_id`` and ``transaction`` (a signed transaction under the App
            Store-shaped test PKI)

usage: .venv/bin/python -m signin_tools.bench.fixtures
"""
import json
import sys

from ..standins.appstore_pki import AppStorePKI
from ..standins.idp import APPLE_AUDIENCE, IdentityProvider
from ..standins.process import run_main

SUBJECT = "001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234"


def main() -> int:
    idp = IdentityProvider()  # never started: only its keys and its minting are used
    pki = AppStorePKI()
    json.dump({
        "apple": {"jwks": {"keys": [k.jwk() for k in idp.keys_of("apple")]}, "audience": APPLE_AUDIENCE,
                  "subject": SUBJECT, "token": idp.apple_token(SUBJECT, lifetime=3600, nonce="bench-nonce")},
        "appstore": {"root_pem": pki["root"].pem, "bundle_id": AppStorePKI.BUNDLE_ID,
                     "transaction": pki.sign({"kind": "transaction"})},
    }, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))

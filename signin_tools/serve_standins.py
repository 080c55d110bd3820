"""Starts local stand-ins and prints one JSON line describing them, then serves until its
standard input closes (or --max-seconds pass). Swift test targets launch it with
`Process` so that `swift test` alone brings up what it needs; it stops with its parent.

    .venv/bin/python -m signin_tools.serve_standins --moto --idp [--max-seconds 900]

Printed keys: "moto" (the function env: AWS_* , IDENTITY_BUCKET, USER_ROLE_ARN) and "idp"
(APPLE_/GOOGLE_ JWKS URLs and audiences). Commands on stdin, one JSON object a line, answered
with one JSON line: {"mint": "apple"|"google", "claims": {...}, "header": {...}} → {"token": ...};
{"jwks_fetches": true} → counts; {"idp_fail": bool}; {"rotate": "apple"|"google"} → new kid.

Also for the token verifier's tests (all optional, older commands unchanged): "mint" takes
"template": {...} (claims built by IdentityProvider.apple_claims/google_claims with these keyword
arguments, then "claims" merged over them and "drop": [names] removed), and "sign", "kid",
"raw_claims", "raw_header" (see IdentityProvider.forge); {"add_key": "apple", "bits": 1024,
"kid": "..."} → {"kid"} appends a key to that JWKS; {"max_age": 120 | null} sets the JWKS
Cache-Control max-age (null: no header).

For moto: {"ssm_put": "/name", "value": "..."} stores a SecureString parameter → {"ok": true}.
"""
import argparse
import json
import select
import sys
import time

from .standins import IdentityProvider, MotoServer
from .standins.idp import SigningKey


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moto", action="store_true")
    ap.add_argument("--idp", action="store_true")
    ap.add_argument("--max-seconds", type=float, default=900)
    args = ap.parse_args()
    moto = MotoServer().start() if args.moto else None
    idp = IdentityProvider().start() if args.idp else None
    try:
        info = {}
        if moto:
            info["moto"] = moto.function_env()
        if idp:
            info["idp"] = idp.function_env()
        print(json.dumps(info), flush=True)
        deadline = time.monotonic() + args.max_seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([sys.stdin], [], [], 1.0)
            if not ready:
                continue
            line = sys.stdin.readline()
            if not line:
                break  # parent closed stdin: done
            print(json.dumps(handle(json.loads(line), idp, moto)), flush=True)
    finally:
        if idp:
            idp.stop()
        if moto:
            moto.stop()
    return 0


def handle(cmd: dict, idp, moto=None) -> dict:
    if "ssm_put" in cmd:
        if moto is None:
            return {"error": "no moto"}
        moto.put_secure_parameter(cmd["ssm_put"], cmd["value"])
        return {"ok": True}
    if idp is None:
        return {"error": "no idp"}
    if "mint" in cmd:
        provider = cmd["mint"]
        forging = any(k in cmd for k in ("template", "drop", "sign", "kid", "raw_claims", "raw_header"))
        if not forging:
            return {"token": idp.mint(provider, cmd.get("claims", {}), cmd.get("header"))}
        claims = {}
        if "template" in cmd:
            make = idp.apple_claims if provider == "apple" else idp.google_claims
            claims = make(**cmd["template"])
        claims.update(cmd.get("claims", {}))
        for name in cmd.get("drop", []):
            claims.pop(name, None)
        return {"token": idp.forge(provider, claims, cmd.get("header"), sign=cmd.get("sign", "jwks"), kid=cmd.get("kid"),
                                   raw_claims=cmd.get("raw_claims"), raw_header=cmd.get("raw_header"))}
    if "jwks_fetches" in cmd:
        return dict(idp.fetches)
    if "idp_fail" in cmd:
        idp.fail = bool(cmd["idp_fail"])
        return {"ok": True}
    if "add_key" in cmd:
        key = idp.add_key(cmd["add_key"], bits=int(cmd.get("bits", 2048)), kid=cmd.get("kid"))
        return {"kid": key.kid}
    if "max_age" in cmd:
        idp.max_age = None if cmd["max_age"] is None else int(cmd["max_age"])
        return {"ok": True}
    if "rotate" in cmd:
        keys = idp.apple_keys if cmd["rotate"] == "apple" else idp.google_keys
        new = SigningKey(f"{cmd['rotate']}-test-{len(keys) + 1}")
        keys.insert(0, new)
        return {"kid": new.kid}
    return {"error": "unknown command"}


if __name__ == "__main__":
    sys.exit(main())

"""Starts local stand-ins and prints one JSON line describing them, then serves until its
standard input closes (or --max-seconds pass). Swift test targets launch it with
`Process` so that `swift test` alone brings up what it needs; it stops with its parent.

    .venv/bin/python -m signin_tools.serve_standins --moto --idp [--apple-auth] [--max-seconds 900]

Printed keys: "moto" (the function env: AWS_* , IDENTITY_BUCKET, USER_ROLE_ARN) and "idp"
(APPLE_/GOOGLE_ JWKS URLs and audiences, FIREBASE_PROJECT_ID, FIREBASE_JWKS_URL,
FIREBASE_ALLOW_ANONYMOUS). Commands on stdin, one JSON object a line, answered with one JSON
line: {"mint": "apple"|"google"|"firebase", "claims": {...}, "header": {...}} → {"token": ...};
{"jwks_fetches": true} → counts; {"idp_fail": bool}; {"rotate": "apple"|"google"|"firebase"} → new kid.

Also for the token verifier's tests (all optional, older commands unchanged): "mint" takes
"template": {...} (claims built by IdentityProvider.apple_claims/google_claims/firebase_claims with
these keyword arguments, then "claims" merged over them and "drop": [names] removed), and "sign", "kid",
"raw_claims", "raw_header" (see IdentityProvider.forge); {"add_key": "apple", "bits": 1024,
"kid": "..."} → {"kid"} appends a key to that JWKS; {"max_age": 120 | null} sets the JWKS
Cache-Control max-age (null: no header).

For moto: {"ssm_put": "/name", "value": "..."} stores a SecureString parameter → {"ok": true}.

--apple-auth (starts the IdP too, sharing it with --idp): Sign in with Apple's token endpoints
(standins/apple_auth.py); printed key "apple_auth" (APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY,
APPLE_AUTH_URL, APPLE_CLIENT_ID). {"apple_code": sub, "email": optional} → {"code"};
{"apple_revoked": true} → {"revoked": [[token, hint], ...]}; {"apple_requests": true} →
{"token": n, "revoke": m}; {"apple_fail_next": n, "status": 503} → {"ok"}; {"apple_down": bool,
"hang": bool} → {"ok"}; {"apple_sub_override": sub | null} → {"ok"}; {"apple_foreign_key": true}
→ {"pem"}: a fresh P-256 key Apple does not know.
An app transfer's side (standins/apple_migration.py): {"apple_add_team": id, "key_id": kid} →
{"ok"}; {"apple_users": [person, ...]} → {"subs": [...]} (their sub under the app's team);
{"apple_transfer_sub": person, "target": team} → {"transfer_sub"}; {"apple_throttle_next": n,
"retry_after": s} → {"ok"}; {"apple_expire_tokens_at": n} → {"ok"}; {"apple_migration_counts":
true} → the counts (client_credentials, usermigrationinfo, throttled, transfer_sub, exchange);
{"apple_transfer": team} → {"ok"} (the app moves there now); {"apple_team_env": team} → that team's
settings as "apple_auth" has them.
"""
import argparse
import json
import select
import sys
import time

from .standins import AppleAuthServer, IdentityProvider, MotoServer
from .standins.apple_migration import transfer_sub_for
from .standins.idp import SigningKey
from .standins.process import run_main


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moto", action="store_true")
    ap.add_argument("--idp", action="store_true")
    ap.add_argument("--apple-auth", action="store_true")
    ap.add_argument("--max-seconds", type=float, default=900)
    args = ap.parse_args()
    moto = MotoServer().start() if args.moto else None
    idp = IdentityProvider().start() if args.idp or args.apple_auth else None
    apple = AppleAuthServer(idp).start() if args.apple_auth else None
    try:
        info = {}
        if moto:
            info["moto"] = moto.admin_env()   # the S3 client's own tests: no function, the admin identity
        if idp:
            info["idp"] = idp.function_env()
        if apple:
            info["apple_auth"] = apple.function_env()
        print(json.dumps(info), flush=True)
        deadline = time.monotonic() + args.max_seconds
        while time.monotonic() < deadline:
            ready, _, _ = select.select([sys.stdin], [], [], 1.0)
            if not ready:
                continue
            line = sys.stdin.readline()
            if not line:
                break  # parent closed stdin: done
            print(json.dumps(handle(json.loads(line), idp, moto, apple)), flush=True)
    finally:
        if apple:
            apple.stop()
        if idp:
            idp.stop()
        if moto:
            moto.stop()
    return 0


def handle(cmd: dict, idp, moto=None, apple=None) -> dict:
    if any(k.startswith("apple_") for k in cmd):
        return handle_apple(cmd, apple)
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
            make = {"apple": idp.apple_claims, "google": idp.google_claims, "firebase": idp.firebase_claims}[provider]
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
        keys = idp.keys_of(cmd["rotate"])
        new = SigningKey(f"{cmd['rotate']}-test-{len(keys) + 1}")
        keys.insert(0, new)
        return {"kid": new.kid}
    return {"error": "unknown command"}


def handle_apple(cmd: dict, apple) -> dict:
    if apple is None:
        return {"error": "no apple-auth"}
    if "apple_code" in cmd:
        return {"code": apple.issue_code(cmd["apple_code"], email=cmd.get("email"))}
    if "apple_revoked" in cmd:
        return {"revoked": [list(entry) for entry in apple.revoked]}
    if "apple_requests" in cmd:
        return dict(apple.requests)
    if "apple_fail_next" in cmd:
        apple.fail_next(int(cmd["apple_fail_next"]), status=int(cmd.get("status", 503)))
        return {"ok": True}
    if "apple_down" in cmd:
        if cmd["apple_down"]:
            apple.down(hang=bool(cmd.get("hang", False)))
        else:
            apple.up()
        return {"ok": True}
    if "apple_sub_override" in cmd:
        apple.id_token_sub_override = cmd["apple_sub_override"]
        return {"ok": True}
    if "apple_foreign_key" in cmd:
        return {"pem": AppleAuthServer(apple.idp).private_key_pem()}
    if "apple_team_env" in cmd:
        return apple.function_env(cmd["apple_team_env"])
    return handle_migration(cmd, apple.migration)


def handle_migration(cmd: dict, migration) -> dict:
    if "apple_add_team" in cmd:
        migration.add_team(cmd["apple_add_team"], cmd["key_id"])
        return {"ok": True}
    if "apple_users" in cmd:
        return {"subs": migration.users(cmd["apple_users"])}
    if "apple_transfer_sub" in cmd:
        return {"transfer_sub": transfer_sub_for(cmd["target"], cmd["apple_transfer_sub"])}
    if "apple_throttle_next" in cmd:
        migration.throttle_next(int(cmd["apple_throttle_next"]), retry_after=int(cmd.get("retry_after", 1)))
        return {"ok": True}
    if "apple_expire_tokens_at" in cmd:
        migration.expire_tokens_at(int(cmd["apple_expire_tokens_at"]))
        return {"ok": True}
    if "apple_migration_counts" in cmd:
        return dict(migration.counts)
    if "apple_transfer" in cmd:
        migration.transfer(cmd["apple_transfer"])
        return {"ok": True}
    return {"error": "unknown command"}


if __name__ == "__main__":
    sys.exit(run_main(main))

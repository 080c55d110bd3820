"""scripts/invoke FUNCTION EVENT_FILE — the offline `sam local invoke`.

Starts the local stand-ins and FUNCTION under the official Lambda emulator (127.0.0.1 only),
posts the event, prints the answer, and stops everything. Placeholders in the event file are
filled with fresh values, since real tokens expire:

  {{token apple SUB}}          an ID token from the local test issuer (also google, firebase)
  {{expired-token apple SUB}}  one that expired an hour ago
  {{refresh-token apple SUB}}  signs SUB up with auth-signin first and uses its refresh token
"""
import json
import re
import sys
import time
from pathlib import Path

from .repo import ROOT
from .standins import LocalDeployment
from .standins.local import SCHEDULED
from .standins.process import run_main

PLACEHOLDER = re.compile(r"\{\{\s*(token|expired-token|refresh-token)\s+(apple|google|firebase)\s+([A-Za-z0-9._-]+)\s*\}\}")


def fill(text: str, local: LocalDeployment) -> str:
    def value(m: re.Match) -> str:
        kind, provider, sub = m.groups()
        mint = {"apple": local.idp.apple_token, "google": local.idp.google_token,
                "firebase": local.idp.firebase_token}[provider]
        if kind == "token":
            return mint(sub)
        if kind == "expired-token":
            return mint(sub, now=int(time.time()) - 7200)
        token = mint(sub)
        answer = local.invoke("auth-signin", {"provider": provider, "idToken": token, "intent": "auto"})
        if not answer.get("success"):
            raise SystemExit(f"could not sign {provider} {sub} in to get a refresh token: {answer.get('error')}")
        return answer["data"]["refreshToken"]

    return PLACEHOLDER.sub(value, text)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    function, event_file = sys.argv[1], Path(sys.argv[2])
    if function not in ("auth-signin", "auth-refresh", "auth-link", SCHEDULED):
        print(f"unknown function {function!r}: auth-signin, auth-refresh, auth-link or {SCHEDULED} (the schedule's alias)",
              file=sys.stderr)
        return 2
    raw = event_file.read_text()
    functions = tuple(dict.fromkeys(["auth-signin", function.split(":")[0]]))
    with LocalDeployment(ROOT / ".build" / "debug", functions=functions) as local:
        payload = fill(raw, local).encode()
        status, body = local.emulators[function].invoke_raw(payload)
        try:
            print(json.dumps(json.loads(body), indent=2))
        except ValueError:
            print(body.decode("utf-8", "replace"))
        print(f"(emulator HTTP {status}; function log: {local.emulators[function].log_path})", file=sys.stderr)
    return 0 if status == 200 else 1


if __name__ == "__main__":
    sys.exit(run_main(main))

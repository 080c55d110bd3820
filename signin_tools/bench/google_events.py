"""Driver for scripts/bench.d/52-google (see there): what Google's Cross-Account Protection costs
the hot paths (issue 25). Each Google operation beside the same Apple one in the same run (the Apple
paths read no suspension record: the baseline): S3/STS requests and sequential network rounds per
operation from the functions' DEBUG "network" lines, median time; and the security events
themselves (sessions-revoked, a hijacking) through auth-link's Function URL."""
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

from ..events import google_sub, url_event
from ..repo import ROOT
from ..standins import LocalDeployment
from ..standins.google_risc import RiscTransmitter
from ..standins.process import run_main
from .stats import network_lines, timed

N = int(os.environ.get("N_GOOGLE", "30"))
BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])


def main():
    risc = RiscTransmitter().start()
    local = LocalDeployment(BIN, log_dir=ROOT / "bench-out" / "google-logs",
                            extra_env={"AWS_LAMBDA_LOG_LEVEL": "DEBUG", **risc.function_env()})
    rows = []
    try:
        local.start()
        idp, signin, refresh, link = local.idp, local.emulators["auth-signin"], local.emulators["auth-refresh"], \
            local.emulators["auth-link"]

        def measure(name, fn, emu, op):
            mark = len(emu.logs())
            times = timed(op, N)
            net = network_lines(emu.logs(), mark)
            rows.append((name, statistics.median(times), statistics.median(r for r, _ in net),
                         statistics.median(b for _, b in net)))

        apple, google = f"001234.{uuid.uuid4().hex}.0001", google_sub()
        apple_rt = signin.invoke({"provider": "apple", "idToken": idp.apple_token(apple)})["data"]["refreshToken"]
        google_rt = signin.invoke({"provider": "google", "idToken": idp.google_token(google)})["data"]["refreshToken"]
        tokens = {"apple": iter([idp.apple_token(apple) for _ in range(N)]),
                  "google": iter([idp.google_token(google) for _ in range(N)])}
        measure("sign-in, existing user, Apple (baseline)", None, signin,
                lambda: signin.invoke({"provider": "apple", "idToken": next(tokens["apple"]), "intent": "signin"}))
        measure("sign-in, existing user, Google", None, signin,
                lambda: signin.invoke({"provider": "google", "idToken": next(tokens["google"]), "intent": "signin"}))
        fresh = {"apple": iter([idp.apple_token(f"001234.{uuid.uuid4().hex}.0002") for _ in range(N)]),
                 "google": iter([idp.google_token(google_sub()) for _ in range(N)])}
        measure("sign-up, Apple (baseline)", None, signin,
                lambda: signin.invoke({"provider": "apple", "idToken": next(fresh["apple"])}))
        measure("sign-up, Google", None, signin,
                lambda: signin.invoke({"provider": "google", "idToken": next(fresh["google"])}))
        held = {"apple": apple_rt, "google": google_rt}

        def rotate(p):
            held[p] = refresh.invoke({"refreshToken": held[p]})["data"]["refreshToken"]
        measure("refresh, Apple session (baseline)", None, refresh, lambda: rotate("apple"))
        measure("refresh, Google session", None, refresh, lambda: rotate("google"))

        def deliver(token):
            event = url_event(token)
            event["headers"]["content-type"] = "application/secevent+jwt"
            answer = link.invoke(event)
            assert answer["statusCode"] == 202, answer
        subs = iter([google_sub() for _ in range(N)])
        measure("security event, sessions-revoked, identity held", None, link,
                lambda: deliver(risc.token("sessions-revoked", sub=google)))
        measure("security event, hijacking, identity held by no account", None, link,
                lambda: deliver(risc.token("account-disabled", sub=next(subs), reason="hijacking")))
    finally:
        local.stop()
        risc.stop()
    print(f"Google's security events and the suspension check, {N} of each, warm, against local moto ({BIN.name} build)")
    for name, ms, requests, rounds in rows:
        print(f"  {name:58s} median {ms:7.2f} ms   requests {requests:.0f}, sequential rounds {rounds:.0f}")


if __name__ == "__main__":
    sys.exit(run_main(main))

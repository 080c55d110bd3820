"""The main job, end to end on local stand-ins: the three real executables under the official
Lambda emulator, moto for S3 and STS (signatures checked), and a local test identity provider.
Prints each step; tokens and keys are shown redacted."""
import sys
import time
from pathlib import Path

from .repo import ROOT
from .standins import LocalDeployment
from .standins.process import run_main

APPLE_SUB = "001234.5f1e0c2b9a7d4e3c8b6a.0942"
GOOGLE_SUB = "104729385610293847561"
failures = []


def redact(value: str) -> str:
    return f"{value[:4]}…({len(value)} chars)" if isinstance(value, str) and len(value) > 8 else "…"


def step(n: int, title: str, answer: dict, expect: str, check=None) -> dict:
    ok = answer.get("success") if expect == "success" else (answer.get("error") or {}).get("code") == expect
    if ok and check is not None:
        ok = check(answer)
    mark = "ok " if ok else "FAIL"
    if answer.get("success"):
        data = answer["data"]
        user = data.get("user") or {}
        bits = []
        if "isNewUser" in data:
            bits.append(f"isNewUser={data['isNewUser']}")
        if user:
            bits.append(f"user={user.get('serviceUserID')} providers={[p['type'] for p in user.get('providers', [])]}")
        if "status" in data:
            bits.append(f"status={data['status']}")
        if "credentials" in data:
            bits.append(f"credentials={data['credentials']['accessKeyId'][:4]}… until {data['credentials']['expiration']}")
        if "refreshToken" in data:
            bits.append(f"refreshToken={redact(data['refreshToken'])}")
        if "signedOut" in data:
            bits.append(f"signedOut={str(data['signedOut']).lower()}")
        if "subscription" in data:
            sub = data["subscription"]
            bits.append(f"subscription={sub.get('tier')}/{sub.get('status')} until {sub.get('expiryDate')}")
        if "deleted" in data:
            bits.append(f"deleted={str(data['deleted']).lower()} user={data['serviceUserID']} purge={data['purge']} "
                        f"appleTokensRevoked={str(data['appleTokensRevoked']).lower()}")
        if "sessions" in data:
            bits.append("sessions=" + ", ".join(f"{x['provider']}/{x['device'] or '-'}{' (this one)' if x['current'] else ''}" for x in data["sessions"]))
        detail = " ".join(bits)
    else:
        detail = f"{answer['error']['code']}: {answer['error']['message']}"
    print(f"[{mark}] {n}. {title}\n       → {detail}")
    if not ok:
        failures.append(title)
    return answer


def operator_view(local, bin_dir: Path, who: str) -> None:
    """The operator's side (issue 20): `authctl show` and `authctl check` on the demo's bucket, as
    an operator holding exactly the template's OperatorPolicy."""
    import subprocess

    from .operator_grants import create_operator

    authctl = bin_dir / "authctl"
    if not authctl.exists():
        print(f"       (authctl not built: {authctl})")
        return
    op = create_operator(local.moto, name="demo-operator")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "AWS_REGION": "us-east-1",
           "AWS_ENDPOINT_URL": local.moto.endpoint, "IDENTITY_BUCKET": local.moto.bucket,
           "AWS_ACCESS_KEY_ID": op["key"], "AWS_SECRET_ACCESS_KEY": op["secret"]}
    for args in (["show", who], ["check"]):
        done = subprocess.run([str(authctl), *args], env=env, capture_output=True, text=True, timeout=120)
        print(f"       $ authctl {' '.join(args)}   (exit {done.returncode}; audit: {len(done.stderr.splitlines())} line)")
        for line in done.stdout.splitlines():
            print(f"         {line}")
        if done.returncode != 0:
            failures.append(f"authctl {args[0]}")


def main() -> int:
    bin_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug"
    print("Starting local stand-ins: moto (S3+STS, signature checking on), test identity provider, 3 functions under the Lambda emulator…")
    with LocalDeployment(bin_dir) as local:
        idp = local.idp
        print(f"   bucket {local.moto.bucket} at {local.moto.endpoint}; JWKS at http://127.0.0.1:{idp.port}\n")

        a = step(1, "Sign up with Apple on the iPhone (first sign-in: Apple sends the name once)",
                 local.invoke("auth-signin", {"provider": "apple", "idToken": idp.apple_token(APPLE_SUB), "fullName": "Ada Lovelace",
                                              "device": "iPhone 15 · Photos 2.3"}),
                 "success", lambda r: r["data"]["isNewUser"] is True)
        uuid = a["data"]["user"]["serviceUserID"] if a.get("success") else None
        session = a["data"]["refreshToken"] if a.get("success") else ""

        mac = step(2, "Sign in again with Apple, on the Mac (same account)",
                   local.invoke("auth-signin", {"provider": "apple", "idToken": idp.apple_token(APPLE_SUB), "intent": "signin", "device": "MacBook Air"}),
                   "success", lambda r: r["data"]["user"]["serviceUserID"] == uuid and r["data"]["isNewUser"] is False)
        mac_session = mac["data"]["refreshToken"] if mac.get("success") else ""

        step(3, "Sign in with Google, not linked yet",
             local.invoke("auth-signin", {"provider": "google", "idToken": idp.google_token(GOOGLE_SUB, name="Ada Lovelace"), "intent": "signin"}),
             "ACCOUNT_NOT_FOUND")

        step(4, "Link Google to the Apple account",
             local.invoke("auth-link", {"refreshToken": session, "action": "link", "provider": "google",
                                        "idToken": idp.google_token(GOOGLE_SUB, name="Ada Lovelace")}),
             "success", lambda r: r["data"]["status"] == "linked")

        g = step(5, "Sign in with Google (same account)",
                 local.invoke("auth-signin", {"provider": "google", "idToken": idp.google_token(GOOGLE_SUB), "intent": "signin"}),
                 "success", lambda r: r["data"]["user"]["serviceUserID"] == uuid)
        session = g["data"]["refreshToken"] if g.get("success") else session

        r = step(6, "Refresh: new credentials and a rotated refresh token",
                 local.invoke("auth-refresh", {"refreshToken": session}),
                 "success", lambda r: r["data"]["refreshToken"] != session)
        creds = r["data"]["credentials"] if r.get("success") else None
        session = r["data"]["refreshToken"] if r.get("success") else session

        if creds:
            s3 = local.moto.client("s3", creds["accessKeyId"], creds["secretAccessKey"], creds["sessionToken"])
            key = f"users/{uuid}/photos/2026/11/IMG_0001.jpg"
            s3.put_object(Bucket=local.moto.bucket, Key=key, Body=b"\xff\xd8\xff\xe0 not really a jpeg", ContentType="image/jpeg")
            body = s3.get_object(Bucket=local.moto.bucket, Key=key)["Body"].read()
            ok = body.startswith(b"\xff\xd8")
            print(f"[{'ok ' if ok else 'FAIL'}] 7. Put and get a photo with the returned credentials\n       → s3://{local.moto.bucket}/{key} ({len(body)} bytes round-tripped)")
            if not ok:
                failures.append("photo round trip")
        else:
            failures.append("photo round trip (no credentials)")

        step(8, "List the account's sessions (from the Mac)",
             local.invoke("auth-refresh", {"refreshToken": mac_session, "action": "list"}),
             "success", lambda r: len(r["data"]["sessions"]) == 3 and sum(x["current"] for x in r["data"]["sessions"]) == 1)
        step(9, "Unlink Google (from the Mac): the Google sign-in's session ends with it",
             local.invoke("auth-link", {"refreshToken": mac_session, "action": "unlink", "provider": "google"}),
             "success", lambda r: [p["type"] for p in r["data"]["user"]["providers"]] == ["apple"])
        step(10, "Refresh the Google sign-in's session", local.invoke("auth-refresh", {"refreshToken": session}), "SESSION_INVALID")
        step(11, "Sign out every other device (from the Mac)",
             local.invoke("auth-refresh", {"refreshToken": mac_session, "action": "signoutOthers"}),
             "success", lambda r: r["data"]["signedOut"] == 1)
        step(12, "Sign out the Mac", local.invoke("auth-refresh", {"refreshToken": mac_session, "action": "signout"}), "success")
        step(13, "Refresh after sign-out", local.invoke("auth-refresh", {"refreshToken": mac_session}), "SESSION_INVALID")

        # Deleting the account (App Store Review Guideline 5.1.1(v)): the app runs Sign in with
        # Apple once more, and sends the fresh authorization code with the delete.
        fresh = step(14, "Sign in with Apple on the iPhone again (fresh: the app buys, then deletes the account)",
                     local.invoke("auth-signin", {"provider": "apple", "idToken": idp.apple_token(APPLE_SUB), "intent": "signin"}),
                     "success", lambda r: r["data"]["user"]["serviceUserID"] == uuid)
        fresh_session = fresh["data"]["refreshToken"] if fresh.get("success") else ""
        # Purchases belong to accounts: the App Store's signed transaction (StoreKit 2), claimed
        # by the account that bought it; a restore on someone else's account is refused.
        now_ms = int(time.time() * 1000)
        purchase = {"originalTransactionId": "2000000100000042", "appAccountToken": uuid, "signedDate": now_ms,
                    "purchaseDate": now_ms, "expiresDate": now_ms + 30 * 86_400_000}
        signed = local.store_pki.sign({"kind": "transaction", "claims": purchase})
        step(15, "Buy Premium on the iPhone: claim the App Store purchase for the account",
             local.invoke("auth-link", {"refreshToken": fresh_session, "action": "claimPurchase", "signedTransaction": signed}),
             "success", lambda r: r["data"]["status"] == "claimed" and r["data"]["subscription"]["tier"] == "premium")
        other = local.invoke("auth-signin", {"provider": "google", "idToken": idp.google_token("104729385610200000001")})
        restore = {k: v for k, v in purchase.items() if k != "appAccountToken"}
        step(16, "Restore purchases while signed in to someone else's account",
             local.invoke("auth-link", {"refreshToken": other.get("data", {}).get("refreshToken", ""), "action": "claimPurchase",
                                        "signedTransaction": local.store_pki.sign({"kind": "transaction", "claims": restore})}),
             "PURCHASE_BELONGS_TO_OTHER_ACCOUNT")
        print("[ .. ] The operator's view of the account before it is deleted (authctl, docs/operations.md)")
        operator_view(local, bin_dir, f"apple:{APPLE_SUB}")
        code = local.apple.issue_code(APPLE_SUB)
        step(17, "Delete the account, with Sign in with Apple's authorization code",
             local.invoke("auth-link", {"refreshToken": fresh_session, "action": "delete", "authorizationCode": code}),
             "success", lambda r: r["data"]["purge"] == "complete" and r["data"]["appleTokensRevoked"] is True)
        left = local.moto.s3().list_object_versions(Bucket=local.moto.bucket, Prefix=f"users/{uuid}/")
        left = len(left.get("Versions", [])) + len(left.get("DeleteMarkers", []))
        gone = left == 0 and len(local.apple.revoked) == 1
        print(f"[{'ok ' if gone else 'FAIL'}] 18. Nothing of the account is left, and Apple revoked its token\n"
              f"       → {left} objects or versions under users/{uuid}/; Apple's stand-in revoked {len(local.apple.revoked)} refresh token")
        if not gone:
            failures.append("deletion left something")
        step(19, "Refresh the deleted account's session", local.invoke("auth-refresh", {"refreshToken": fresh_session}),
             "SESSION_INVALID")
        step(20, "Sign in with Apple (intent signin): the account is gone",
             local.invoke("auth-signin", {"provider": "apple", "idToken": idp.apple_token(APPLE_SUB), "intent": "signin"}),
             "ACCOUNT_NOT_FOUND")
        step(21, "Sign in with Apple again: a new, empty account with a new UUID",
             local.invoke("auth-signin", {"provider": "apple", "idToken": idp.apple_token(APPLE_SUB)}),
             "success", lambda r: r["data"]["isNewUser"] is True and r["data"]["user"]["serviceUserID"] != uuid)

    print()
    if failures:
        print(f"{len(failures)} step(s) did not go as expected: {', '.join(failures)}")
        return 1
    print("The whole story ran through the real executables. Logs: .tmp/logs/")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))

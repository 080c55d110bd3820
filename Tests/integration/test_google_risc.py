"""Google's Cross-Account Protection (contract v4, "Google's security events"; issue 25): security
event tokens posted to auth-link's Function URL as `application/secevent+jwt`, signed by the
loopback transmitter (signin_tools/standins/google_risc.py) with its own keys, against the real
executables and moto. Each event's effect, the suspension's reach (sign-in, sign-up, link; the
account, its other providers and its data untouched), duplicates, refusals (400, nothing changes)
and transient failures (503). PYTEST_DONT_REWRITE."""
import json
import time
import uuid as uuidlib

from authctl_support import own_bucket  # noqa: F401 (fixture)
from service_support import log_records, apple_sub, code, google_sub, ok, refused, url_event, via_url
from signin_tools.standins.google_risc import SUBJECT_ISSUER, forged_key
from signin_tools.standins.idp import SigningKey


def deliver(svc, token: str, function: str = "auth-link", content_type: str = "application/secevent+jwt"):
    """What Google's push delivery makes of a Function URL call: (HTTP status, envelope)."""
    event = url_event(token)
    event["headers"]["content-type"] = content_type
    status, _, envelope = via_url(svc.fn(function), event)
    return status, envelope


def security_event_lines(text: str) -> list[dict]:
    """The events of every `answered securityEvents=[...]` log line."""
    out = []
    for line in text.splitlines():
        if " answered securityEvents=" in line:
            out += json.loads(line.split(" answered securityEvents=", 1)[1])
    return out


def account_with_google_and_apple(svc):
    """An account signed up with Apple, Google linked, and a Google session on a second device."""
    a = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(a)))
    g = google_sub()
    ok(svc.link(refreshToken=data["refreshToken"], provider="google", idToken=svc.idp.google_token(g)))
    google_sessions = [ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))["refreshToken"]
                       for _ in range(2)]
    return a, g, data, google_sessions


def put_photo(svc, data) -> str:
    c = data["credentials"]
    s3 = svc.moto.client("s3", c["accessKeyId"], c["secretAccessKey"], c["sessionToken"])
    key = f"{data['storage']['prefix']}photos/beach.jpg"
    s3.put_object(Bucket=data["storage"]["bucket"], Key=key, Body=b"\xff\xd8 photo")
    return key


def entry(svc, uuid: str, kind: str = "google") -> dict | None:
    doc = svc.read_json(f"users/{uuid}/account/providers.json")
    return next((p for p in doc["providers"] if p["type"] == kind), None)


def google_signin_status(svc, g: str, intent: str = "signin") -> tuple[int, dict]:
    body = json.dumps({"provider": "google", "idToken": svc.idp.google_token(g), "intent": intent})
    status, _, envelope = via_url(svc.fn("auth-signin"), url_event(body))
    return status, envelope


# ---------------------------------------------------------------- sessions end

def test_sessions_revoked_ends_every_google_session_and_nothing_else(svc):
    a, g, data, google_sessions = account_with_google_and_apple(svc)
    uuid = data["user"]["serviceUserID"]
    photo = put_photo(svc, data)
    providers_before = svc.read_json(f"users/{uuid}/account/providers.json")
    jti = uuidlib.uuid4().hex
    status, envelope = deliver(svc, svc.risc.token("sessions-revoked", sub=g, jti=jti))
    assert (status, envelope["data"]) == (202, {"status": "processed"}), f"sessions-revoked: {status} {envelope}"
    for token in google_sessions:
        refused(svc.refresh(refreshToken=token), "SESSION_INVALID", "a Google session after sessions-revoked")
    ok(svc.refresh(refreshToken=data["refreshToken"]))  # the Apple session goes on
    after = svc.read_json(f"users/{uuid}/account/providers.json")
    assert [p["id"] for p in after["providers"]] == [p["id"] for p in providers_before["providers"]]
    assert entry(svc, uuid)["sessionsNotBefore"] and "suspension" not in entry(svc, uuid)
    assert svc.read_object(photo) is not None
    # a new sign-in with Google works: Google ended the sessions, it did not stop the identity
    fresh = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))
    ok(svc.refresh(refreshToken=fresh["refreshToken"]))
    # the same token again: a duplicate, nothing changes
    before = svc.snapshot()
    status, envelope = deliver(svc, svc.risc.token("sessions-revoked", sub=g, jti=jti))
    assert (status, envelope["data"]["status"]) == (202, "duplicate")
    assert svc.snapshot() == before, "a duplicate jti changed S3"
    ok(svc.refresh(refreshToken=ok(svc.refresh(refreshToken=fresh["refreshToken"]))["refreshToken"]))
    assert svc.read_object(f"notifications/google-risc/{jti}") is not None
    # audited and counted like Apple's events; never a sub in the log
    audits = [r["audit"] for r in log_records(svc.fn("auth-link").logs(), "audit") if r["audit"]["serviceUserID"] == uuid]
    assert ("endSessions", "google", "sessions-revoked") in [(x["operation"], x["provider"], x["outcome"]) for x in audits]
    emf = [r for r in log_records(svc.fn("auth-link").logs(), "_aws") if r["Operation"] == "googleSecurityEvent"]
    assert [r["Outcome"] for r in emf] == ["success", "success"] and "IdentitySuspensions" in emf[0]
    assert g not in svc.logs() and a not in svc.logs()


def test_oauth_token_revocations_end_the_sessions_of_a_named_identity(svc):
    _, g, data, google_sessions = account_with_google_and_apple(svc)
    status, envelope = deliver(svc, svc.risc.token("tokens-revoked", sub=g))
    assert (status, envelope["data"]["status"]) == (202, "processed")
    refused(svc.refresh(refreshToken=google_sessions[0]), "SESSION_INVALID", "a Google session after tokens-revoked")
    fresh = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))["refreshToken"]
    status, envelope = deliver(svc, svc.risc.token("token-revoked", sub=g))
    assert (status, envelope["data"]["status"]) == (202, "processed")
    refused(svc.refresh(refreshToken=fresh), "SESSION_INVALID", "a Google session after token-revoked")
    # a refresh token's hash names nothing this service holds (it keeps no Google tokens)
    kept = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))["refreshToken"]
    before = svc.snapshot()
    subject = {"subject_type": "oauth_token", "token_type": "refresh_token",
               "token_identifier_alg": "hash_base64_sha512_sha512", "token": "bm90IGEgdG9rZW4="}
    status, envelope = deliver(svc, svc.risc.token("token-revoked", subject=subject))
    assert (status, envelope["data"]["status"]) == (202, "acknowledged")
    assert set(svc.snapshot()) - set(before) == {k for k in svc.snapshot() if k.startswith("notifications/google-risc/")} - set(before)
    ok(svc.refresh(refreshToken=kept))
    ok(svc.refresh(refreshToken=data["refreshToken"]))


def test_sessions_end_past_one_listing_page(svc):
    """"Every one": the end is one write of the link's sessionsNotBefore, not a walk of the records."""
    _, g, _, google_sessions = account_with_google_and_apple(svc)
    status, _ = deliver(svc, svc.risc.token("account-disabled", sub=g, reason="bulk-account"))
    assert status == 202
    for token in google_sessions:
        refused(svc.refresh(refreshToken=token), "SESSION_INVALID", "a Google session after account-disabled")
    ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))  # not suspended


# ---------------------------------------------------------------- the suspension

def test_hijacking_suspends_the_google_identity_until_account_enabled(svc):
    a, g, data, google_sessions = account_with_google_and_apple(svc)
    uuid = data["user"]["serviceUserID"]
    photo = put_photo(svc, data)
    issued = int(time.time())
    status, envelope = deliver(svc, svc.risc.token("account-disabled", sub=g, reason="hijacking", iat=issued))
    assert (status, envelope["data"]["status"]) == (202, "processed"), f"account-disabled: {status} {envelope}"
    record = svc.read_json(f"suspensions/google/{g}.json")
    assert (record["suspended"], record["reason"]) == (True, "hijacking")
    assert entry(svc, uuid)["suspension"]["suspended"] is True
    for token in google_sessions:
        refused(svc.refresh(refreshToken=token), "SESSION_INVALID", "a Google session of a hijacked identity")
    # sign-in, sign-up and link with it: 403 IDENTITY_SUSPENDED, nothing written
    before = svc.snapshot()
    for intent in ("signin", "auto", "signup"):
        status, envelope = google_signin_status(svc, g, intent)
        assert (status, envelope["error"]["code"]) == (403, "IDENTITY_SUSPENDED"), f"{intent}: {status} {envelope}"
    other = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    before = svc.snapshot()
    refused(svc.link(refreshToken=other["refreshToken"], provider="google", idToken=svc.idp.google_token(g)),
            "IDENTITY_SUSPENDED", "linking a suspended identity elsewhere")
    refused(svc.link(refreshToken=data["refreshToken"], provider="google", idToken=svc.idp.google_token(g)),
            "IDENTITY_SUSPENDED", "linking it again where it is")
    assert svc.snapshot() == before, "a refused sign-in or link changed S3"
    # the account, its other provider and its data are untouched
    apple = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(a), intent="signin"))
    assert apple["user"]["serviceUserID"] == uuid
    assert [p["type"] for p in apple["user"]["providers"]] == ["apple", "google"]
    ok(svc.refresh(refreshToken=data["refreshToken"]))
    assert svc.read_object(photo) is not None
    audits = [r["audit"] for r in log_records(svc.fn("auth-link").logs(), "audit")]
    got = [(x["operation"], x["serviceUserID"], x["outcome"]) for x in audits if x["operation"] != "link"]
    assert ("suspendIdentity", uuid, "suspended") in got, got
    emf = [r for r in log_records(svc.fn("auth-link").logs(), "_aws") if r["Operation"] == "googleSecurityEvent"]
    assert emf[-1]["IdentitySuspensions"] == 1

    # an older account-enabled (delivered late) does not lift it; the newer one does
    status, envelope = deliver(svc, svc.risc.token("account-enabled", sub=g, iat=issued - 60))
    assert status == 202 and svc.read_json(f"suspensions/google/{g}.json")["suspended"] is True
    assert google_signin_status(svc, g)[0] == 403
    status, envelope = deliver(svc, svc.risc.token("account-enabled", sub=g, iat=issued + 1))
    assert (status, envelope["data"]["status"]) == (202, "processed")
    assert svc.read_json(f"suspensions/google/{g}.json")["suspended"] is False
    assert entry(svc, uuid)["suspension"]["suspended"] is False
    back = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))
    assert back["user"]["serviceUserID"] == uuid
    ok(svc.refresh(refreshToken=back["refreshToken"]))
    for token in google_sessions:  # the sessions it ended stay ended
        refused(svc.refresh(refreshToken=token), "SESSION_INVALID", "a session the suspension ended, after the lift")
    audits = [r["audit"] for r in log_records(svc.fn("auth-link").logs(), "audit")]
    assert ("suspendIdentity", uuid, "lifted") in [(x["operation"], x["serviceUserID"], x["outcome"]) for x in audits]


def test_a_hijacked_identity_no_account_holds_cannot_sign_up_or_be_linked(svc):
    g = google_sub()
    issued = int(time.time())
    status, envelope = deliver(svc, svc.risc.token("account-disabled", sub=g, reason="hijacking", iat=issued))
    assert (status, envelope["data"]["status"]) == (202, "unknownIdentity")
    assert svc.read_json(f"suspensions/google/{g}.json")["suspended"] is True
    status, envelope = google_signin_status(svc, g, "auto")
    assert (status, envelope["error"]["code"]) == (403, "IDENTITY_SUSPENDED")
    assert svc.read_object(f"identities/google/{g}") is None, "a suspended identity got an account"
    holder = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    refused(svc.link(refreshToken=holder["refreshToken"], provider="google", idToken=svc.idp.google_token(g)),
            "IDENTITY_SUSPENDED", "linking a suspended identity")
    audits = [r["audit"] for r in log_records(svc.fn("auth-link").logs(), "audit")]
    assert ("suspendIdentity", None, "suspended") in [(x["operation"], x["serviceUserID"], x["outcome"]) for x in audits]
    deliver(svc, svc.risc.token("account-enabled", sub=g, iat=issued + 1))  # at the same second the suspension wins
    ok(svc.signin(provider="google", idToken=svc.idp.google_token(g)))


# ---------------------------------------------------------------- acknowledged only

def test_credential_change_verification_and_unknown_types_are_logged_and_acknowledged(svc):
    _, g, data, google_sessions = account_with_google_and_apple(svc)
    before = {k for k in svc.snapshot() if not k.startswith("notifications/")}
    status, envelope = deliver(svc, svc.risc.token("account-credential-change-required", sub=g))
    assert (status, envelope["data"]["status"]) == (202, "acknowledged")
    state = f"authctl check {uuidlib.uuid4().hex[:8]}"
    status, envelope = deliver(svc, svc.risc.token("verification", state=state))
    assert (status, envelope["data"]["status"]) == (202, "acknowledged")
    status, envelope = deliver(svc, svc.risc.token("https://schemas.openid.net/secevent/risc/event-type/account-purged", sub=g))
    assert (status, envelope["data"]["status"]) == (202, "acknowledged")
    assert {k for k in svc.snapshot() if not k.startswith("notifications/")} == before
    ok(svc.refresh(refreshToken=google_sessions[0]))
    logged = security_event_lines(svc.fn("auth-link").logs())
    assert any(e.get("state") == state for e in logged), "verification's state not echoed"
    assert any(e["type"].endswith("/account-purged") for e in logged)


# ---------------------------------------------------------------- refused: 400, nothing changes

def test_security_event_tokens_that_fail_verification_are_400_and_change_nothing(svc):
    _, g, data, google_sessions = account_with_google_and_apple(svc)
    now = int(time.time())
    stranger = SigningKey("risc-stranger")
    bad = {
        "signed by an unknown key": svc.risc.token("sessions-revoked", sub=g, key=forged_key()),
        "a key id in no JWKS": svc.risc.token("sessions-revoked", sub=g, key=stranger),
        "another audience": svc.risc.token("sessions-revoked", sub=g, aud="999-other.apps.googleusercontent.com"),
        "another issuer": svc.risc.token("sessions-revoked", sub=g, iss="https://issuer.example"),
        "issued in the future": svc.risc.token("account-disabled", sub=g, reason="hijacking", iat=now + 600),
        "older than 30 days": svc.risc.token("sessions-revoked", sub=g, iat=now - 31 * 86400),
        "no jti": svc.risc.token("sessions-revoked", sub=g, jti=""),
        "no events": svc.risc.token("sessions-revoked", sub=g, events={}),
        "a Google ID token": svc.idp.google_token(g),
        "not a JWT": "not-a-jwt",
    }
    before = svc.snapshot()
    for what, token in bad.items():
        status, envelope = deliver(svc, token)
        assert status == 400 and envelope["success"] is False, f"{what}: HTTP {status} {envelope}"
    assert svc.snapshot() == before, f"a refused token changed S3: {sorted(set(svc.snapshot()) ^ set(before))}"
    for token in google_sessions:
        ok(svc.refresh(refreshToken=token))
    # an `exp` in the past is not checked: events describe the past
    status, _ = deliver(svc, svc.risc.token("sessions-revoked", sub=g, exp=now - 3600))
    assert status == 202


def test_security_event_tokens_go_to_auth_link_only(svc):
    status, envelope = deliver(svc, svc.risc.token("verification", state="x"), function="auth-signin")
    assert (status, envelope["error"]["code"]) == (400, "INVALID_REQUEST")
    # as JSON it is no security event: an ordinary (refused) request
    status, envelope = deliver(svc, svc.risc.token("verification", state="x"), content_type="application/json")
    assert status == 400


def test_keys_that_cannot_be_fetched_are_503_so_google_delivers_again(svc, tmp_path):
    _, g, _, google_sessions = account_with_google_and_apple(svc)
    link = svc.start("auth-link", GOOGLE_RISC_JWKS_URL="http://127.0.0.1:9/risc/certs")
    event = url_event(svc.risc.token("sessions-revoked", sub=g))
    event["headers"]["content-type"] = "application/secevent+jwt; charset=utf-8"
    status, _, envelope = via_url(link, event)
    assert (status, envelope["error"]["code"]) == (503, "UPSTREAM_UNAVAILABLE")
    ok(svc.refresh(refreshToken=google_sessions[0]))
    # delivered again once the keys are reachable: processed
    status, envelope = deliver(svc, event["body"])
    assert (status, envelope["data"]["status"]) == (202, "processed")


def test_a_risc_key_url_that_is_not_https_or_loopback_is_an_init_error(svc):
    emu = svc.start("auth-link", GOOGLE_RISC_JWKS_URL="http://risc.example/certs")
    status, body = emu.invoke_raw(json.dumps({"action": "link"}).encode())
    assert status == 502
    error = json.loads(body)
    assert error["errorType"] == "Runtime.InvalidConfiguration" and "GOOGLE_RISC_JWKS_URL" in error["errorMessage"]


def test_the_google_session_of_an_identity_suspended_while_linked_elsewhere_is_not_the_accounts(svc):
    """`iss-sub` subjects must name Google's issuer: another issuer's subject names no identity here."""
    _, g, _, google_sessions = account_with_google_and_apple(svc)
    subject = {"subject_type": "iss-sub", "iss": "https://issuer.example", "sub": g}
    status, envelope = deliver(svc, svc.risc.token("sessions-revoked", subject=subject))
    assert (status, envelope["data"]["status"]) == (202, "acknowledged")
    ok(svc.refresh(refreshToken=google_sessions[0]))
    subject = {"subject_type": "id_token_claims", "iss": SUBJECT_ISSUER, "sub": g, "email": "x@gmail.com"}
    status, envelope = deliver(svc, svc.risc.token("sessions-revoked", subject=subject))
    assert (status, envelope["data"]["status"]) == (202, "processed")
    refused(svc.refresh(refreshToken=google_sessions[0]), "SESSION_INVALID", "after an id_token_claims subject")


# ---------------------------------------------------------------- what the operator sees

def test_show_export_and_check_see_the_suspension_and_check_repairs_a_half_applied_one(svc, own_bucket):
    op, bucket = own_bucket, own_bucket.moto.bucket
    s3 = svc.moto.s3()
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        svc._default[name] = svc.start(name, IDENTITY_BUCKET=bucket)
    a, g, data, google_sessions = account_with_google_and_apple(svc)
    uuid = data["user"]["serviceUserID"]
    # Google's event stopped after its first write (the record), before the account's entry.
    now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    record = {"version": 1, "suspended": True, "reason": "hijacking", "eventIssuedAt": now, "changedAt": now}
    s3.put_object(Bucket=bucket, Key=f"suspensions/google/{g}.json", Body=json.dumps(record).encode())
    s3.put_object(Bucket=bucket, Key=f"suspensions/google/{google_sub()}.json", Body=b"not json")
    done = op.run("check", "--json")
    assert done.returncode == 3, f"check exits {done.returncode}: {done.stderr[-300:]}"
    report = json.loads(done.stdout)
    assert sorted(f["kind"] for f in report["findings"]) == ["suspension-not-applied", "unreadable-document"], report
    assert report["suspensions"] == 2
    shown = op.json("show", uuid)
    google = next(p for p in shown["providers"] if p["type"] == "google")
    assert google["suspensionRecord"]["suspended"] is True and google["suspension"] is None
    assert "SUSPENDED by Google (hijacking)" in op.ok("show", uuid).stdout
    assert "entry says otherwise" in op.ok("show", uuid).stdout
    ok(svc.refresh(refreshToken=google_sessions[0]))  # the half-applied event has not ended them yet

    repaired = json.loads(op.run("check", "--repair", "--yes", "--json").stdout)
    by_kind = {f["kind"]: f for f in repaired["findings"]}
    assert by_kind["suspension-not-applied"]["repaired"] is True
    assert by_kind["unreadable-document"]["repaired"] is not True, "an unreadable record is a person's"
    refused(svc.refresh(refreshToken=google_sessions[0]), "SESSION_INVALID", "a Google session after the repair")
    ok(svc.refresh(refreshToken=data["refreshToken"]))
    s3.delete_object(Bucket=bucket, Key=next(k for k in (o["Key"] for o in s3.list_objects_v2(
        Bucket=bucket, Prefix="suspensions/google/")["Contents"]) if g not in k))
    assert op.json("check")["found"] == 0, "the bucket passes after the repair"
    exported = op.home / "export.json"
    op.ok("export", uuid, "--out", str(exported))
    google = next(p for p in json.loads(exported.read_text())["providers"] if p["type"] == "google")
    assert google["suspension"]["suspended"] is True and google["sessionsEndedAt"]

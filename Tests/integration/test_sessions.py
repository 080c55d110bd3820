"""Sessions and links end to end (docs/API.md, auth-refresh and auth-link; issue 9): the real
executables under the official Lambda emulator, against moto (versioned bucket, signature checking
on), with ID tokens from the loopback test issuer.

Refresh tokens are secrets. pytest's assertion rewriting would print the values inside a failing
expression (the arguments of `svc.refresh(refreshToken=...)`, both sides of `token not in text`),
so it is off for this module: PYTEST_DONT_REWRITE. Every assertion carries its own message, made
of codes, statuses, session ids and keys only, never a token."""
import hashlib
import re
import time
from datetime import datetime, timedelta

import pytest

from service_support import account_of, apple_sub, forged, google_sub, ok, refused, session_id_of
from signin_tools.standins import free_port

HEX32 = re.compile(r"^[0-9a-f]{32}$")
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")




# -- helpers (messages never carry a token) ---------------------------------------------------------


def same(actual, expected, what: str) -> None:
    """For values that are not secrets (ids, labels, codes, counts)."""
    assert actual == expected, f"{what}: expected {expected!r}, got {actual!r}"


def unchanged(svc, before: dict, what: str) -> None:
    after = svc.snapshot()
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert not changed, f"{what} changed S3: {changed}"


def signup_apple(svc, sub=None, **extra):
    sub = sub or apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), **extra))
    return sub, data


def signin_apple(svc, sub, **extra) -> str:
    """Another sign-in (a new session) of an existing Apple account; its refresh token."""
    return ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin", **extra))["refreshToken"]


def session_key(token: str) -> str:
    return f"users/{account_of(token)}/account/sessions/{session_id_of(token)}.json"


def listed_ids(svc, token: str) -> list[str]:
    return [s["sessionId"] for s in ok(svc.refresh(refreshToken=token, action="list"))["sessions"]]


def parse_time(text: str) -> datetime:
    assert isinstance(text, str) and ISO_UTC.match(text), f"not an ISO-8601 UTC time: {text!r}"
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def providers_doc(svc, uuid: str) -> dict:
    return svc.read_json(f"users/{uuid}/account/providers.json")


# -- 1. a forged token (real account and session id, a secret never issued) --------------------------

def test_forged_token_is_refused_by_every_action_and_changes_nothing(svc):
    sub, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    real = data["refreshToken"]
    g = google_sub()
    ok(svc.link(refreshToken=real, provider="google", idToken=svc.idp.google_token(g)))  # so unlink could act
    other = signin_apple(svc, sub)  # so signoutOthers / signoutSession would have something to end
    fake = forged(real)
    assert fake != real and len(fake) == len(real) and "=" not in fake, "the forgery is a well-formed, different token"
    same((account_of(fake), session_id_of(fake)), (uuid, session_id_of(real)), "the forgery names the real account and session")

    before = svc.snapshot()
    record_before = svc.read_object(session_key(real))
    cases = [
        ("auth-refresh", {"refreshToken": fake}),
        ("auth-refresh", {"refreshToken": fake, "action": "refresh"}),
        ("auth-refresh", {"refreshToken": fake, "action": "signout"}),
        ("auth-refresh", {"refreshToken": fake, "action": "list"}),
        ("auth-refresh", {"refreshToken": fake, "action": "signoutOthers"}),
        ("auth-refresh", {"refreshToken": fake, "action": "signoutSession", "sessionId": session_id_of(other)}),
        ("auth-refresh", {"refreshToken": fake, "action": "signoutSession", "sessionId": session_id_of(real)}),
        ("auth-link", {"refreshToken": fake, "action": "link", "provider": "google", "idToken": svc.idp.google_token(google_sub())}),
        ("auth-link", {"refreshToken": fake, "action": "unlink", "provider": "google"}),
        ("auth-link", {"refreshToken": fake, "action": "unlink", "provider": "apple"}),
    ]
    for name, event in cases:
        what = f"{name} {event.get('action', '(default)')} {event.get('provider', '')}{event.get('sessionId', '')} with a forged token"
        refused(svc.fn(name).invoke(event), "SESSION_INVALID", what)
        unchanged(svc, before, what)
    assert svc.read_object(session_key(real)) == record_before, "the session record must be byte-identical"

    # The real tokens of both sessions are untouched.
    same(sorted(listed_ids(svc, real)), sorted([session_id_of(real), session_id_of(other)]), "sessions after the forgeries")
    rotated = ok(svc.refresh(refreshToken=real))["refreshToken"]
    ok(svc.refresh(refreshToken=rotated))
    ok(svc.refresh(refreshToken=other))


# -- 2. two links of two Google identities into one account at once ------------------------------------

def test_concurrent_links_of_two_google_identities_leave_exactly_one(svc):
    s3 = svc.moto.s3()
    for round_ in range(3):  # fresh accounts each round, to make the race real more than once
        _, data = signup_apple(svc)
        uuid = data["user"]["serviceUserID"]
        subs = [google_sub(), google_sub()]
        events = [{"refreshToken": data["refreshToken"], "action": "link", "provider": "google", "idToken": svc.idp.google_token(g)}
                  for g in subs]
        answers = svc.parallel("auth-link", events)
        outcomes = [a["data"]["status"] if a.get("success") else a["error"]["code"] for a in answers]
        assert sorted(outcomes) == ["PROVIDER_ALREADY_LINKED", "linked"], f"round {round_}: {outcomes}"
        w = outcomes.index("linked")
        loser = 1 - w

        doc = providers_doc(svc, uuid)
        google = [p for p in doc["providers"] if p["type"] == "google"]
        same([p["id"] for p in google], [subs[w]], f"round {round_}: google entries of providers.json")
        same([p["id"] for p in answers[w]["data"]["user"]["providers"] if p["type"] == "google"], [subs[w]],
             f"round {round_}: google providers in the winner's answer")
        assert not any(p.get("id") == subs[loser] for p in doc.get("pending", [])), f"round {round_}: the loser's claim is left pending"
        link_id = google[0].get("linkID")
        assert isinstance(link_id, str) and HEX32.match(link_id), f"round {round_}: linkID {link_id!r}"

        ident = svc.read_object(f"identities/google/{subs[w]}")
        assert ident is not None, f"round {round_}: the winner has no identity file"
        same(ident["body"].decode(), uuid, f"round {round_}: the winner's identity file")
        same(ident["metadata"].get("link-id"), link_id, f"round {round_}: link-id metadata of the winner's identity file")
        assert svc.read_object(f"identities/google/{subs[loser]}") is None, f"round {round_}: the loser left an identity file"
        versions = s3.list_object_versions(Bucket=svc.moto.bucket, Prefix=f"identities/google/{subs[loser]}")
        assert not versions.get("Versions") and not versions.get("DeleteMarkers"), f"round {round_}: the loser left a version behind"

        # The winner signs in to this account; the loser's identity is nobody's.
        same(ok(svc.signin(provider="google", idToken=svc.idp.google_token(subs[w]), intent="signin"))["user"]["serviceUserID"], uuid,
             f"round {round_}: the winner's sign-in")
        refused(svc.signin(provider="google", idToken=svc.idp.google_token(subs[loser]), intent="signin"), "ACCOUNT_NOT_FOUND",
                f"round {round_}: the loser's sign-in")


# -- 3. sessions follow their identity ----------------------------------------------------------------

def test_unlink_ends_the_sessions_of_that_identity_even_after_linking_it_again(svc):
    _, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    t_apple = data["refreshToken"]
    g = google_sub()
    ok(svc.link(refreshToken=t_apple, provider="google", idToken=svc.idp.google_token(g)))
    signed_in = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))
    same(signed_in["user"]["serviceUserID"], uuid, "the Google sign-in's account")
    t_google = signed_in["refreshToken"]
    same(len(listed_ids(svc, t_apple)), 2, "sessions before the unlink")

    out = ok(svc.link(refreshToken=t_apple, action="unlink", provider="google"))
    same((out["status"], [p["type"] for p in out["user"]["providers"]]), ("unlinked", ["apple"]), "the unlink's answer")
    refused(svc.refresh(refreshToken=t_google), "SESSION_INVALID", "refresh of the Google session after the unlink")
    refused(svc.refresh(refreshToken=t_google, action="list"), "SESSION_INVALID", "list with the Google session after the unlink")
    same(listed_ids(svc, t_apple), [session_id_of(t_apple)], "sessions listed after the unlink")

    # Linking the same Google identity again makes a new link: the old session stays dead.
    same(ok(svc.link(refreshToken=t_apple, provider="google", idToken=svc.idp.google_token(g)))["status"], "linked", "link again")
    refused(svc.refresh(refreshToken=t_google), "SESSION_INVALID", "refresh of the old Google session after linking again")
    refused(svc.link(refreshToken=t_google, action="unlink", provider="apple"), "SESSION_INVALID",
            "unlink with the old Google session after linking again")
    same(listed_ids(svc, t_apple), [session_id_of(t_apple)], "sessions listed after linking again")

    # A fresh Google sign-in works, and the Apple session was never affected.
    fresh = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))
    same(fresh["user"]["serviceUserID"], uuid, "the fresh Google sign-in's account")
    ok(svc.refresh(refreshToken=fresh["refreshToken"]))
    ok(svc.refresh(refreshToken=t_apple))


# -- 4. a refresh that fails spends nothing -------------------------------------------------------------

def test_refresh_with_sts_unreachable_spends_nothing(svc):
    dead_sts = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    broken = svc.start("auth-refresh", AWS_ENDPOINT_URL_STS=dead_sts, REFRESH_REUSE_GRACE_SECONDS=0)
    _, data = signup_apple(svc)
    token = data["refreshToken"]
    key = session_key(token)
    before = svc.snapshot()
    record = svc.read_object(key)

    refused(broken.invoke({"refreshToken": token}, timeout=60), "UPSTREAM_UNAVAILABLE", "refresh with STS unreachable")
    assert svc.read_object(key) == record, "a failed refresh rewrote the session record"
    unchanged(svc, before, "a failed refresh")

    healthy = svc.start("auth-refresh", REFRESH_REUSE_GRACE_SECONDS=0)
    again = ok(healthy.invoke({"refreshToken": token}))
    assert again["refreshToken"] != token, "the retry must rotate the token"
    stored = svc.read_json(key)
    same(stored["generation"], 2, "generation after the failed refresh and its retry (exactly one rotation)")
    assert stored["current"]["hash"] == sha256_hex(again["refreshToken"]), "the record's current token is the retry's answer"
    assert stored["previous"]["hash"] == sha256_hex(token), "the record's previous token is the one presented twice"
    ok(healthy.invoke({"refreshToken": again["refreshToken"]}))


# -- 5. list, signoutOthers, signoutSession ---------------------------------------------------------------

def test_list_signout_others_and_signout_session(svc):
    sub, data = signup_apple(svc, device="iPhone 15 · Photos 2.3")
    t1 = data["refreshToken"]
    t2 = signin_apple(svc, sub, device="iPad Air")
    t3 = signin_apple(svc, sub, device="MacBook")
    s1, s2, s3 = (session_id_of(t) for t in (t1, t2, t3))

    listed = ok(svc.refresh(refreshToken=t3, action="list"))["sessions"]
    same([s["sessionId"] for s in listed], [s3, s2, s1], "list order (newest sign-in first)")
    same([s["device"] for s in listed], ["MacBook", "iPad Air", "iPhone 15 · Photos 2.3"], "device labels")
    same([s["current"] for s in listed], [True, False, False], "current flags")
    for s in listed:
        same(set(s), {"sessionId", "provider", "device", "signedInAt", "lastRefreshedAt", "expiresAt", "current"}, "session fields")
        same(s["provider"], "apple", "provider")
        signed_in, refreshed, expires = (parse_time(s[k]) for k in ("signedInAt", "lastRefreshedAt", "expiresAt"))
        assert refreshed >= signed_in, f"lastRefreshedAt before signedInAt: {s}"
        assert abs((expires - signed_in) - timedelta(days=30)) <= timedelta(seconds=1), f"expiresAt is not 30 days after sign-in: {s}"
    times = [parse_time(s["signedInAt"]) for s in listed]
    assert times == sorted(times, reverse=True), f"signedInAt not newest first: {[s['signedInAt'] for s in listed]}"
    same([s["sessionId"] for s in ok(svc.refresh(refreshToken=t2, action="list"))["sessions"] if s["current"]], [s2],
         "current as seen from session 2")

    # Refreshing session 1 shows in lastRefreshedAt; its just-rotated token counts for no other action.
    time.sleep(1.1)
    t1b = ok(svc.refresh(refreshToken=t1))["refreshToken"]
    s1_listed = next(s for s in ok(svc.refresh(refreshToken=t3, action="list"))["sessions"] if s["sessionId"] == s1)
    assert parse_time(s1_listed["lastRefreshedAt"]) > parse_time(s1_listed["signedInAt"]), f"lastRefreshedAt not updated: {s1_listed}"
    before = svc.snapshot()
    for event in ({"action": "list"}, {"action": "signoutOthers"}, {"action": "signoutSession", "sessionId": s2},
                  {"action": "signoutSession", "sessionId": s1}):
        refused(svc.refresh(refreshToken=t1, **event), "SESSION_INVALID", f"{event} with the just-rotated token")
        unchanged(svc, before, f"{event} with the just-rotated token (within the grace: not reuse)")

    # signoutOthers ends the two others.
    same(ok(svc.refresh(refreshToken=t3, action="signoutOthers")), {"signedOut": 2}, "signoutOthers")
    refused(svc.refresh(refreshToken=t1b), "SESSION_INVALID", "session 1 after signoutOthers")
    refused(svc.refresh(refreshToken=t2), "SESSION_INVALID", "session 2 after signoutOthers")
    t3b = ok(svc.refresh(refreshToken=t3))["refreshToken"]
    same(listed_ids(svc, t3b), [s3], "sessions after signoutOthers")
    # An already-ended session: the same answer, nothing changes.
    before = svc.snapshot()
    same(ok(svc.refresh(refreshToken=t3b, action="signoutSession", sessionId=s2)), {"signedOut": True}, "signoutSession of an ended session")
    unchanged(svc, before, "signoutSession of an ended session")

    # signoutSession of ANOTHER session needs a recent sign-in; of the presented session it does not.
    t4 = signin_apple(svc, sub, device="Apple Watch")
    s4 = session_id_of(t4)
    slow = svc.start("auth-refresh", RECENT_AUTH_SECONDS=1)
    time.sleep(2.2)
    before = svc.snapshot()
    refused(slow.invoke({"refreshToken": t3b, "action": "signoutSession", "sessionId": s4}), "REAUTHENTICATION_REQUIRED",
            "signoutSession of another session, sign-in older than RECENT_AUTH_SECONDS")
    refused(slow.invoke({"refreshToken": t3b, "action": "signoutOthers"}), "REAUTHENTICATION_REQUIRED",
            "signoutOthers, sign-in older than RECENT_AUTH_SECONDS")
    unchanged(svc, before, "REAUTHENTICATION_REQUIRED")
    same(ok(slow.invoke({"refreshToken": t3b, "action": "signoutSession", "sessionId": s3})), {"signedOut": True},
         "signoutSession of the presented session, sign-in older than RECENT_AUTH_SECONDS")
    refused(svc.refresh(refreshToken=t3b), "SESSION_INVALID", "the session that signed itself out")
    t4b = ok(svc.refresh(refreshToken=t4))["refreshToken"]  # the other session lives on

    # A session id of ANOTHER account: the same answer, and that session is untouched.
    _, other = signup_apple(svc)
    t_other = other["refreshToken"]
    ok(svc.refresh(refreshToken=t4b, action="list"))  # v5: t4b's first presentation is recorded here, once
    before = svc.snapshot()
    same(ok(svc.refresh(refreshToken=t4b, action="signoutSession", sessionId=session_id_of(t_other))), {"signedOut": True},
         "signoutSession naming another account's session")
    unchanged(svc, before, "signoutSession naming another account's session")
    ok(svc.refresh(refreshToken=t_other))

    # Malformed session ids (and a misspelt action).
    before = svc.snapshot()
    for bad in [s4.upper(), s4[:31], s4 + "0", "g" * 32, s4[:8] + "-" + s4[8:], "", 42, None]:
        refused(svc.refresh(refreshToken=t4b, action="signoutSession", sessionId=bad), "INVALID_REQUEST", f"sessionId {bad!r}")
    refused(svc.refresh(refreshToken=t4b, action="signoutSession"), "INVALID_REQUEST", "signoutSession without sessionId")
    refused(svc.refresh(refreshToken=t4b, action="signOutOthers"), "INVALID_REQUEST", "action signOutOthers")
    unchanged(svc, before, "malformed signoutSession events")
    same(listed_ids(svc, t4b), [s4], "sessions at the end")


# -- 6. device labels ---------------------------------------------------------------------------------------

def test_device_label_validation(svc):
    sub, data = signup_apple(svc)
    token = data["refreshToken"]
    before = svc.snapshot()
    rejected = ["x" * 65, "iPhone\nPhotos", "iPhone\tPhotos", "iPhone\x00", "iPhone\x7f", "iPhone\u0085", "é" * 65, 42, ["iPhone"]]
    for label in rejected:
        answer = svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin", device=label)
        refused(answer, "INVALID_REQUEST", f"device {label!r}")
    unchanged(svc, before, "rejected device labels")

    base = "iPhone 15 · Photos 2.3 "
    label64 = base + "é" * (63 - len(base)) + "📷"
    assert len(label64) == 64 and len(label64.encode()) > 64
    t64 = signin_apple(svc, sub, device=label64)
    t_empty = signin_apple(svc, sub, device="")
    listed = {s["sessionId"]: s["device"] for s in ok(svc.refresh(refreshToken=token, action="list"))["sessions"]}
    same(listed, {session_id_of(token): None, session_id_of(t64): label64, session_id_of(t_empty): None}, "listed device labels")
    same(svc.read_json(session_key(t64))["device"], label64, "stored device label")


# -- 7. what is stored ------------------------------------------------------------------------------------

def test_link_ids_and_session_records_as_stored(svc):
    s3 = svc.moto.s3()
    sub, data = signup_apple(svc, device="Pixel 8")
    uuid = data["user"]["serviceUserID"]
    t_apple = data["refreshToken"]
    g = google_sub()
    ok(svc.link(refreshToken=t_apple, provider="google", idToken=svc.idp.google_token(g)))
    t_google = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin", device="Work laptop"))["refreshToken"]

    entries = {p["type"]: p for p in providers_doc(svc, uuid)["providers"]}
    same(set(entries), {"apple", "google"}, "providers.json entries")
    for provider, provider_id in (("apple", sub), ("google", g)):
        ident = svc.read_object(f"identities/{provider}/{provider_id}")
        same(ident["body"].decode(), uuid, f"{provider} identity file")
        link_id = ident["metadata"].get("link-id")
        assert isinstance(link_id, str) and HEX32.match(link_id), f"{provider} identity file link-id {link_id!r}"
        same(link_id, entries[provider].get("linkID"), f"{provider}: identity file link-id vs providers.json linkID")
    assert entries["apple"]["linkID"] != entries["google"]["linkID"], "two links share a link id"

    rotated = ok(svc.refresh(refreshToken=t_apple))["refreshToken"]
    for token, provider, provider_id, device, issued in ((rotated, "apple", sub, "Pixel 8", (t_apple, rotated)),
                                                         (t_google, "google", g, "Work laptop", (t_google,))):
        key = session_key(token)
        raw = svc.read_object(key)["body"].decode()
        record = svc.read_json(key)
        same(record.get("identity"), {"provider": provider, "sub": provider_id, "linkID": entries[provider]["linkID"]}, f"{key} identity")
        same((record.get("device"), record.get("serviceUserID"), record.get("sessionID")), (device, uuid, session_id_of(token)), key)
        leaked = any(t in raw or t[4:] in raw for t in issued)
        assert not leaked, f"a refresh token is stored in {key}"
        same(s3.get_object_tagging(Bucket=svc.moto.bucket, Key=key)["TagSet"], [{"Key": "record", "Value": "session"}], f"{key} tags")


# -- 8. identity files are deleted exactly: by version id (versioned) or If-Match (unversioned) -------------

def test_unlink_in_the_versioned_bucket_leaves_no_version_of_the_identity_file(svc):
    s3 = svc.moto.s3()
    same(s3.get_bucket_versioning(Bucket=svc.moto.bucket).get("Status"), "Enabled", "the test bucket's versioning")
    _, data = signup_apple(svc)
    g = google_sub()
    ok(svc.link(refreshToken=data["refreshToken"], provider="google", idToken=svc.idp.google_token(g)))
    assert svc.read_object(f"identities/google/{g}")["versionId"] not in (None, "null"), "the identity file has no version id"
    ok(svc.link(refreshToken=data["refreshToken"], action="unlink", provider="google"))
    versions = s3.list_object_versions(Bucket=svc.moto.bucket, Prefix=f"identities/google/{g}")
    assert not versions.get("Versions"), "an old version of the identity file still names the account"
    assert not versions.get("DeleteMarkers"), "the identity file was deleted with a delete marker, not by version"
    refused(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"), "ACCOUNT_NOT_FOUND", "sign-in after unlink")


def test_link_and_unlink_in_an_unversioned_bucket(svc):
    s3 = svc.moto.s3()
    bucket = f"signin-unversioned-{free_port()}-{int(time.time())}"
    svc.moto.add_bucket(bucket)   # the functions' derived grants cover it too
    assert "Status" not in s3.get_bucket_versioning(Bucket=bucket), "the second bucket must be unversioned"
    signin = svc.start("auth-signin", IDENTITY_BUCKET=bucket)
    link = svc.start("auth-link", IDENTITY_BUCKET=bucket)

    sub = apple_sub()
    data = ok(signin.invoke({"provider": "apple", "idToken": svc.idp.apple_token(sub)}))
    uuid = data["user"]["serviceUserID"]
    same(data["storage"]["bucket"], bucket, "storage bucket")
    g = google_sub()
    same(ok(link.invoke({"refreshToken": data["refreshToken"], "provider": "google", "idToken": svc.idp.google_token(g)}))["status"],
         "linked", "link")
    ident = svc.read_object(f"identities/google/{g}", bucket=bucket)
    assert ident is not None, "the link wrote no identity file"
    same((ident["body"].decode(), ident["versionId"] in (None, "null")), (uuid, True), "identity file in the unversioned bucket")
    same(ok(signin.invoke({"provider": "google", "idToken": svc.idp.google_token(g), "intent": "signin"}))["user"]["serviceUserID"], uuid,
         "sign-in with the linked identity")

    same(ok(link.invoke({"refreshToken": data["refreshToken"], "action": "unlink", "provider": "google"}))["status"], "unlinked", "unlink")
    assert svc.read_object(f"identities/google/{g}", bucket=bucket) is None, "the identity file survived the unlink"
    refused(signin.invoke({"provider": "google", "idToken": svc.idp.google_token(g), "intent": "signin"}), "ACCOUNT_NOT_FOUND",
            "sign-in after unlink")
    # The Apple identity is untouched, and nothing of this went to the default bucket.
    same(svc.read_object(f"identities/apple/{sub}", bucket=bucket)["body"].decode(), uuid, "apple identity file")
    assert not any(uuid in k or g in k for k in svc.snapshot()), "the functions wrote to the default bucket"

"""Firebase Auth as the opt-in third provider end to end (docs/API.md, "Firebase"; issue 13): the
real executables under the official Lambda emulator, against moto, with Firebase ID tokens from the
loopback test issuer (its own key and JWKS, project `photobackup-test`).

Refresh tokens are secrets, so assertion rewriting is off for this module (PYTEST_DONT_REWRITE, as
in test_sessions.py): every assertion carries its own message of codes, types and keys."""
import time
import uuid as uuidlib

from service_support import apple_sub, code, google_sub, ok, session_id_of


def firebase_uid() -> str:
    """A uid shaped as Firebase makes them: 28 letters and digits."""
    return uuidlib.uuid4().hex[:14] + uuidlib.uuid4().hex[:14].upper()


def signup_firebase(svc, uid=None, **claims):
    uid = uid or firebase_uid()
    data = ok(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid, **claims), intent="signup"))
    return uid, data


def identity_owner(svc, provider: str, sub: str) -> str | None:
    found = svc.read_object(f"identities/{provider}/{sub}")
    return found["body"].decode() if found else None


# -- sign-up and sign-in ----------------------------------------------------------------------------

def test_signup_with_a_firebase_token(svc):
    before = set(svc.snapshot())
    uid, data = signup_firebase(svc, name="Grace Hopper", email="grace@example.com")
    uuid = data["user"]["serviceUserID"]
    assert data["isNewUser"] is True, "a new account"
    added = set(svc.snapshot()) - before
    assert f"identities/firebase/{uid}" in added, "the identity file is identities/firebase/{uid}"
    assert not [k for k in added if k.startswith("identities/") and k != f"identities/firebase/{uid}"], "one identity file"
    assert identity_owner(svc, "firebase", uid) == uuid, "the identity file names the account"
    user = data["user"]
    assert (user["displayName"], user["email"], user["primaryProvider"]) == ("Grace Hopper", "grace@example.com", "firebase")
    [entry] = user["providers"]
    assert (entry["type"], entry["id"], entry["email"], entry["isPrimary"]) == ("firebase", uid, "grace@example.com", True)
    profile = svc.read_json(f"users/{uuid}/account/profile.json")
    assert profile["primaryProvider"] == "firebase" and profile["displayName"] == "Grace Hopper", "profile.json"
    sessions = ok(svc.refresh(refreshToken=data["refreshToken"], action="list"))["sessions"]
    assert [s["provider"] for s in sessions] == ["firebase"], "the session names its provider"


def test_signin_with_a_firebase_token_is_the_same_account(svc):
    uid, first = signup_firebase(svc)
    again = ok(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid), intent="signin"))
    assert again["user"]["serviceUserID"] == first["user"]["serviceUserID"] and again["isNewUser"] is False, "same account"
    # A token refreshed by the Firebase SDK hours after the sign-in keeps the old auth_time.
    later = svc.idp.firebase_token(uid, auth_time=int(time.time()) - 6 * 3600)
    assert ok(svc.signin(provider="firebase", idToken=later))["user"]["serviceUserID"] == first["user"]["serviceUserID"]
    before = svc.snapshot()
    assert code(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(firebase_uid()), intent="signin")) == "ACCOUNT_NOT_FOUND"
    assert code(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid), intent="signup")) == "ACCOUNT_ALREADY_EXISTS"
    assert svc.snapshot() == before, "a refused sign-in writes nothing"


def test_display_name_comes_from_the_token_then_the_email(svc):
    _, named = signup_firebase(svc, name="Katherine Johnson")
    assert named["user"]["displayName"] == "Katherine Johnson", "the token's name"
    _, unnamed = signup_firebase(svc, email="dorothy.vaughan@example.com")
    assert unnamed["user"]["displayName"] == "dorothy.vaughan", "the email's local part"
    uid = firebase_uid()
    data = ok(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid, name="From Token"), fullName="From App"))
    assert data["user"]["displayName"] == "From App", "the event's fullName first"


def test_firebase_identities_link_nothing(svc):
    """The token's firebase.identities names an Apple and a Google account: neither is linked."""
    a, g = apple_sub(), google_sub()
    uid, data = signup_firebase(svc, sign_in_provider="apple.com", identities={"apple.com": [a], "google.com": [g]})
    assert [p["type"] for p in data["user"]["providers"]] == ["firebase"], "only the Firebase identity is listed"
    assert identity_owner(svc, "apple", a) is None and identity_owner(svc, "google", g) is None, "no Apple/Google file"
    assert code(svc.signin(provider="apple", idToken=svc.idp.apple_token(a), intent="signin")) == "ACCOUNT_NOT_FOUND"
    assert code(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin")) == "ACCOUNT_NOT_FOUND"


# -- link and unlink ------------------------------------------------------------------------------

def test_link_firebase_to_an_apple_account_and_sign_in_with_either(svc):
    a = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(a)))
    uuid = data["user"]["serviceUserID"]
    uid = firebase_uid()
    linked = ok(svc.link(refreshToken=data["refreshToken"], provider="firebase", idToken=svc.idp.firebase_token(uid)))
    assert linked["status"] == "linked", "linked"
    assert [(p["type"], p["isPrimary"]) for p in linked["user"]["providers"]] == [("apple", True), ("firebase", False)]
    assert identity_owner(svc, "firebase", uid) == uuid, "the Firebase identity file names the Apple account"
    again = ok(svc.link(refreshToken=data["refreshToken"], provider="firebase", idToken=svc.idp.firebase_token(uid)))
    assert again["status"] == "already_linked", "linking it again"
    by_firebase = ok(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid), intent="signin"))
    by_apple = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(a), intent="signin"))
    assert by_firebase["user"]["serviceUserID"] == uuid == by_apple["user"]["serviceUserID"], "either signs in to it"
    # An account holds one identity of each type: apple, google and firebase together.
    g = google_sub()
    both = ok(svc.link(refreshToken=by_firebase["refreshToken"], provider="google", idToken=svc.idp.google_token(g)))
    assert sorted(p["type"] for p in both["user"]["providers"]) == ["apple", "firebase", "google"], "three providers"
    other = svc.idp.firebase_token(firebase_uid())
    assert code(svc.link(refreshToken=data["refreshToken"], provider="firebase", idToken=other)) == "PROVIDER_ALREADY_LINKED"


def test_a_firebase_identity_of_another_account_cannot_be_linked(svc):
    uid, _ = signup_firebase(svc)
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    before = svc.snapshot()
    token = svc.idp.firebase_token(uid)
    assert code(svc.link(refreshToken=data["refreshToken"], provider="firebase", idToken=token)) == "PROVIDER_ALREADY_LINKED"
    assert svc.snapshot() == before, "a refused link writes nothing"


def test_unlink_firebase_ends_its_sessions(svc):
    a = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(a)))
    uuid = data["user"]["serviceUserID"]
    t_apple = data["refreshToken"]
    uid = firebase_uid()
    ok(svc.link(refreshToken=t_apple, provider="firebase", idToken=svc.idp.firebase_token(uid)))
    t_firebase = ok(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid), intent="signin"))["refreshToken"]
    out = ok(svc.link(refreshToken=t_apple, action="unlink", provider="firebase"))
    assert (out["status"], [p["type"] for p in out["user"]["providers"]]) == ("unlinked", ["apple"]), "the unlink's answer"
    assert identity_owner(svc, "firebase", uid) is None, "the identity file is gone"
    assert code(svc.refresh(refreshToken=t_firebase)) == "SESSION_INVALID", "the Firebase session ended"
    listed = [s["sessionId"] for s in ok(svc.refresh(refreshToken=t_apple, action="list"))["sessions"]]
    assert listed == [session_id_of(t_apple)], "only the Apple session is left"
    assert code(svc.signin(provider="firebase", idToken=svc.idp.firebase_token(uid), intent="signin")) == "ACCOUNT_NOT_FOUND"
    assert code(svc.link(refreshToken=t_apple, action="unlink", provider="firebase")) == "PROVIDER_NOT_LINKED"
    assert code(svc.link(refreshToken=t_apple, action="unlink", provider="apple")) == "LAST_PROVIDER"
    assert svc.read_json(f"users/{uuid}/account/profile.json")["primaryProvider"] == "apple", "Apple stays primary"


# -- refusals -------------------------------------------------------------------------------------

def test_refused_firebase_tokens_write_nothing(svc):
    idp = svc.idp
    uid = firebase_uid()
    now = int(time.time())
    cases = [
        ("another project's token", idp.firebase_token(uid, project="another-project"), "INVALID_TOKEN"),
        ("another audience", idp.firebase_token(uid, aud="another-project"), "INVALID_TOKEN"),
        ("a Google ID token", idp.google_token(google_sub()), "INVALID_TOKEN"),
        ("an Apple ID token", idp.apple_token(apple_sub()), "INVALID_TOKEN"),
        ("auth_time in the future", idp.firebase_token(uid, auth_time=now + 600), "INVALID_TOKEN"),
        ("no auth_time", idp.mint("firebase", {k: v for k, v in idp.firebase_claims(uid).items() if k != "auth_time"}),
         "INVALID_TOKEN"),
        ("a 129-character uid", idp.firebase_token("u" * 129), "INVALID_TOKEN"),
        ("a uid the identity rule refuses", idp.firebase_token("uid:with/slash"), "INVALID_TOKEN"),
        ("an anonymous user", idp.firebase_token(uid, sign_in_provider="anonymous"), "INVALID_TOKEN"),
        ("an expired token", idp.firebase_token(uid, now=now - 7200), "TOKEN_EXPIRED"),
    ]
    before = svc.snapshot()
    for what, token, expected in cases:
        assert code(svc.signin(provider="firebase", idToken=token)) == expected, what
    # A Firebase token is no Google token either.
    assert code(svc.signin(provider="google", idToken=idp.firebase_token(uid))) == "INVALID_TOKEN", "as Google"
    assert svc.snapshot() == before, "a refused token changed S3"
    # Exactly 128 characters is a uid.
    longest = "u" * 127 + uuidlib.uuid4().hex[:1]
    data = ok(svc.signin(provider="firebase", idToken=idp.firebase_token(longest)))
    assert data["user"]["providers"][0]["id"] == longest, "a 128-character uid"


def test_anonymous_users_only_when_allowed(svc):
    uid = firebase_uid()
    token = svc.idp.firebase_token(uid, sign_in_provider="anonymous")
    before = svc.snapshot()
    answer = svc.signin(provider="firebase", idToken=token)
    assert code(answer) == "INVALID_TOKEN" and "anonymous" in answer["error"]["message"], "refused by default"
    assert svc.snapshot() == before, "the refusal writes nothing"
    allowing = svc.start("auth-signin", FIREBASE_ALLOW_ANONYMOUS="true")
    data = ok(allowing.invoke({"provider": "firebase", "idToken": token}))
    assert data["isNewUser"] is True and data["user"]["providers"][0]["id"] == uid, "accepted with the flag"
    assert data["user"]["email"] is None, "an anonymous user has no email"


def test_a_deployment_without_firebase_answers_unsupported_provider_and_writes_nothing(svc):
    signin = svc.start("auth-signin", FIREBASE_PROJECT_ID="")
    link = svc.start("auth-link", FIREBASE_PROJECT_ID="")
    data = ok(signin.invoke({"provider": "apple", "idToken": svc.idp.apple_token(apple_sub())}))
    uid = firebase_uid()
    token = svc.idp.firebase_token(uid)
    before = svc.snapshot()
    for intent in ("signin", "signup", "auto"):
        answer = signin.invoke({"provider": "firebase", "idToken": token, "intent": intent})
        assert code(answer) == "UNSUPPORTED_PROVIDER", intent
        assert answer["error"]["message"].endswith("(it accepts: apple, google)"), "names the accepted providers"
    answer = link.invoke({"refreshToken": data["refreshToken"], "provider": "firebase", "idToken": token})
    assert code(answer) == "UNSUPPORTED_PROVIDER", "link"
    unknown = signin.invoke({"provider": "facebook", "idToken": token})
    assert code(unknown) == "UNSUPPORTED_PROVIDER" and "(it accepts: apple, google)" in unknown["error"]["message"]
    assert svc.snapshot() == before, "nothing written"


def test_a_firebase_link_can_be_removed_after_firebase_is_turned_off(svc):
    """Apps move off Firebase: once FIREBASE_PROJECT_ID is removed, accounts can still unlink it."""
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    uid = firebase_uid()
    ok(svc.link(refreshToken=data["refreshToken"], provider="firebase", idToken=svc.idp.firebase_token(uid)))
    off = svc.start("auth-link", FIREBASE_PROJECT_ID="")
    out = ok(off.invoke({"refreshToken": data["refreshToken"], "action": "unlink", "provider": "firebase"}))
    assert [p["type"] for p in out["user"]["providers"]] == ["apple"], "unlinked with Firebase off"
    assert identity_owner(svc, "firebase", uid) is None, "the identity file is gone"


def test_firebase_sessions_keep_refreshing_after_firebase_is_turned_off(svc):
    """Turning Firebase off refuses new Firebase sign-ins, not the sessions already made."""
    _, data = signup_firebase(svc)
    t = data["refreshToken"]
    off = svc.start("auth-refresh", FIREBASE_PROJECT_ID="")
    assert "refreshToken" in ok(off.invoke({"refreshToken": t})), "the session refreshes with Firebase off"
    signin_off = svc.start("auth-signin", FIREBASE_PROJECT_ID="")
    assert code(signin_off.invoke({"provider": "firebase", "idToken": svc.idp.firebase_token(firebase_uid())})) == (
        "UNSUPPORTED_PROVIDER"), "while new Firebase sign-ins are refused"


def test_an_invalid_firebase_project_id_is_an_init_error(svc):
    emu = svc.start("auth-signin", FIREBASE_PROJECT_ID="Not_A_Project")
    status, body = emu.invoke_raw(b"{}")
    assert status == 502, "init failed"
    assert b"Runtime.InvalidConfiguration" in body and b"FIREBASE_PROJECT_ID" in body, "names the variable"
    assert b"Not_A_Project" not in body, "never the value"

"""The three functions end to end (docs/API.md): the real executables under the official Lambda
emulator, against moto with signature checking on, with tokens from a loopback test issuer."""
import re
import time
import uuid as uuidlib


from service_support import apple_sub, code, google_sub, ok

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")




def signup_apple(svc, sub=None, **extra):
    sub = sub or apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), **extra))
    return sub, data


# -- sign-up and the S3 layout ------------------------------------------------------------------

def test_signup_writes_exactly_the_contract_layout(svc):
    before = set(svc.snapshot())
    sub, data = signup_apple(svc, fullName="Ada Lovelace")
    uuid = data["user"]["serviceUserID"]
    assert UUID_RE.match(uuid)
    assert data["isNewUser"] is True
    added = set(svc.snapshot()) - before
    sessions = [k for k in added if k.startswith(f"users/{uuid}/account/sessions/")]
    assert len(sessions) == 1 and sessions[0].endswith(".json")
    assert added - set(sessions) == {
        f"identities/apple/{sub}",
        f"users/{uuid}/", f"users/{uuid}/photos/", f"users/{uuid}/thumbnails/", f"users/{uuid}/metadata/", f"users/{uuid}/account/",
        f"users/{uuid}/account/profile.json", f"users/{uuid}/account/providers.json",
    }
    s3 = svc.moto.s3()
    ident = s3.get_object(Bucket=svc.moto.bucket, Key=f"identities/apple/{sub}")
    assert ident["Body"].read().decode() == uuid and ident["ContentType"] == "text/plain"
    marker = s3.get_object(Bucket=svc.moto.bucket, Key=f"users/{uuid}/photos/")
    assert marker["ContentType"] == "application/x-directory" and marker["Body"].read() == b""

    profile = svc.read_json(f"users/{uuid}/account/profile.json")
    assert profile["version"] == 1 and profile["serviceUserID"] == uuid and profile["displayName"] == "Ada Lovelace"
    assert profile["primaryProvider"] == "apple"
    sub_ = profile["subscription"]
    assert (sub_["tier"], sub_["storageLimit"], sub_["storageUsed"]) == ("free", 209715200, 0)
    start, expiry = (time.mktime(time.strptime(sub_[k], "%Y-%m-%dT%H:%M:%SZ")) for k in ("startDate", "expiryDate"))
    assert expiry - start == 30 * 86400
    assert profile["preferences"] == {"uploadQuality": "high", "autoBackup": True, "wifiOnlyBackup": True}

    providers = svc.read_json(f"users/{uuid}/account/providers.json")
    assert providers["version"] == 1 and providers["primaryProvider"] == "apple"
    [link] = providers["providers"]
    assert (link["type"], link["id"], link["isPrimary"]) == ("apple", sub, True)
    assert {"email", "displayName", "linkedAt", "lastUsed"} <= set(link)

    session = svc.read_json(sessions[0])
    assert data["refreshToken"] not in json_text(session), "the refresh token itself must never be stored"


def json_text(value) -> str:
    import json
    return json.dumps(value)


def test_signin_answer_shape(svc):
    sub, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    assert set(data) == {"isNewUser", "user", "credentials", "storage", "refreshToken", "refreshTokenExpiresAt"}
    assert data["storage"] == {"bucket": svc.moto.bucket, "region": "us-east-1", "prefix": f"users/{uuid}/"}
    creds = data["credentials"]
    assert creds["accessKeyId"].startswith("ASIA") and creds["secretAccessKey"] and creds["sessionToken"] and creds["expiration"]
    user = data["user"]
    assert {"serviceUserID", "displayName", "email", "createdAt", "lastUpdated", "primaryProvider", "providers", "subscription", "preferences"} <= set(user)
    assert user["providers"][0] == {**{k: user["providers"][0][k] for k in ("email", "linkedAt", "lastUsed")}, "type": "apple", "id": sub, "isPrimary": True}


def test_meta_carries_the_lambda_request_id(svc):
    answer = svc.signin(provider="apple", idToken="not-a-jwt")
    assert answer["meta"]["requestId"] and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$", answer["meta"]["timestamp"])


def test_signin_again_is_the_same_account(svc):
    sub, first = signup_apple(svc)
    again = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin"))
    assert again["user"]["serviceUserID"] == first["user"]["serviceUserID"] and again["isNewUser"] is False
    assert again["refreshToken"] != first["refreshToken"]


def test_intents(svc):
    sub = apple_sub()
    before = svc.snapshot()
    assert code(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin")) == "ACCOUNT_NOT_FOUND"
    assert svc.snapshot() == before, "ACCOUNT_NOT_FOUND must write nothing"
    ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signup"))
    before = svc.snapshot()
    assert code(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signup")) == "ACCOUNT_ALREADY_EXISTS"
    assert svc.snapshot() == before, "ACCOUNT_ALREADY_EXISTS must write nothing"
    assert ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))["isNewUser"] is False  # auto


def test_display_name_rule(svc):
    _, d1 = signup_apple(svc, fullName="Grace Hopper")
    assert d1["user"]["displayName"] == "Grace Hopper"
    d2 = ok(svc.signin(provider="google", idToken=svc.idp.google_token(google_sub(), name="Katherine Johnson")))
    assert d2["user"]["displayName"] == "Katherine Johnson"
    sub = apple_sub()
    d3 = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub, email="margaret.hamilton@example.com")))
    assert d3["user"]["displayName"] == "margaret.hamilton"


def test_repeated_signin_writes_only_the_new_session(svc):
    sub, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    before = svc.snapshot()
    ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    after = svc.snapshot()
    changed = {k for k in after if before.get(k) != after[k]}
    assert len(changed) == 1 and next(iter(changed)).startswith(f"users/{uuid}/account/sessions/")


def test_email_change_is_recorded(svc):
    sub, data = signup_apple(svc, )
    uuid = data["user"]["serviceUserID"]
    ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub, email="new-address@example.com")))
    providers = svc.read_json(f"users/{uuid}/account/providers.json")
    assert providers["providers"][0]["email"] == "new-address@example.com"


def test_nonce(svc):
    sub = apple_sub()
    token = svc.idp.apple_token(sub, nonce="raw-nonce-123")
    assert code(svc.signin(provider="apple", idToken=token, nonce="another-nonce")) == "INVALID_TOKEN"
    ok(svc.signin(provider="apple", idToken=token, nonce="raw-nonce-123"))


# -- nothing written for bad input ----------------------------------------------------------------

def test_rejected_tokens_and_events_write_nothing(svc, idp):
    from signin_tools.standins.idp import SigningKey
    sub = apple_sub()
    stranger = SigningKey("apple-test-1")  # right kid, wrong key
    cases = [
        ({"provider": "apple", "idToken": idp.mint("apple", idp.apple_claims(sub), key=stranger)}, "INVALID_TOKEN"),
        ({"provider": "apple", "idToken": idp.apple_token(sub, now=int(time.time()) - 7200)}, "TOKEN_EXPIRED"),
        ({"provider": "apple", "idToken": idp.apple_token(sub, aud="com.example.other")}, "INVALID_TOKEN"),
        ({"provider": "apple", "idToken": idp.mint("apple", idp.apple_claims("../evil"))}, "INVALID_TOKEN"),
        ({"provider": "google", "idToken": idp.apple_token(sub)}, "INVALID_TOKEN"),
        ({"provider": "facebook", "idToken": "a.b.c"}, "UNSUPPORTED_PROVIDER"),
        ({"provider": "apple"}, "INVALID_REQUEST"),
        ({"provider": "apple", "idToken": 42}, "INVALID_REQUEST"),
        ({"provider": "apple", "idToken": "x" * (16 * 1024 + 1)}, "INVALID_REQUEST"),
        ({"provider": "apple", "idToken": idp.apple_token(sub), "intent": "maybe"}, "INVALID_REQUEST"),
    ]
    before = svc.snapshot()
    for event, expected in cases:
        assert code(svc.signin(**event)) == expected, event.get("provider")
    status, body = svc.fn("auth-signin").invoke_raw(b'{"provider": "apple", "idToken": ')
    assert status == 200 and b"INVALID_REQUEST" in body
    status, body = svc.fn("auth-signin").invoke_raw(b'{"pad": "' + b"x" * (64 * 1024) + b'"}')
    assert status == 200 and b"INVALID_REQUEST" in body
    assert code(svc.refresh(refreshToken="rt1_garbage")) == "SESSION_INVALID"
    assert code(svc.refresh(refreshToken=7)) == "INVALID_REQUEST"
    assert code(svc.link(refreshToken="rt1_garbage", provider="google", idToken=idp.google_token(google_sub()))) in ("SESSION_INVALID", "INVALID_TOKEN")
    assert svc.snapshot() == before, "a rejected request changed S3"
    # and the runtime kept serving
    ok(svc.signin(provider="apple", idToken=idp.apple_token(sub)))


# -- refresh sessions -----------------------------------------------------------------------------

def test_refresh_rotates_and_the_old_token_stops_working(svc):
    sub, data = signup_apple(svc)
    t0 = data["refreshToken"]
    r1 = ok(svc.refresh(refreshToken=t0))
    assert set(r1) == {"credentials", "storage", "refreshToken", "refreshTokenExpiresAt", "user"}
    assert r1["refreshToken"] != t0 and r1["refreshTokenExpiresAt"] == data["refreshTokenExpiresAt"]
    r2 = ok(svc.refresh(refreshToken=r1["refreshToken"]))
    # t0 is now two rotations old: reuse, the whole session is revoked
    assert code(svc.refresh(refreshToken=t0)) == "SESSION_INVALID"
    assert code(svc.refresh(refreshToken=r2["refreshToken"])) == "SESSION_INVALID"


def test_lost_answer_retry_within_grace(svc):
    sub, data = signup_apple(svc)
    t0 = data["refreshToken"]
    t1 = ok(svc.refresh(refreshToken=t0))["refreshToken"]
    t2 = ok(svc.refresh(refreshToken=t0))["refreshToken"]  # answer for t1 was "lost": retry with t0
    assert len({t0, t1, t2}) == 3
    assert code(svc.refresh(refreshToken=t1)) == "SESSION_INVALID"  # the one issued before stops working
    ok(svc.refresh(refreshToken=t2))  # and the session is alive


def test_previous_token_after_grace_is_reuse(svc):
    fast = svc.start("auth-refresh", REFRESH_REUSE_GRACE_SECONDS=1)
    sub, data = signup_apple(svc)
    t0 = data["refreshToken"]
    t1 = ok(fast.invoke({"refreshToken": t0}))["refreshToken"]
    # v5: the old token is reuse once its successor has been presented (list records it).
    ok(fast.invoke({"refreshToken": t1, "action": "list"}))
    time.sleep(2.2)
    assert code(fast.invoke({"refreshToken": t0})) == "SESSION_INVALID"
    assert code(fast.invoke({"refreshToken": t1})) == "SESSION_INVALID", "reuse must revoke the session"


def test_a_late_retry_while_the_successor_is_unpresented_is_answered(svc):
    """Contract v5: a phone's life never ends a session; the retry after the grace gets a new token."""
    fast = svc.start("auth-refresh", REFRESH_REUSE_GRACE_SECONDS=1)
    sub, data = signup_apple(svc)
    t0 = data["refreshToken"]
    lost = ok(fast.invoke({"refreshToken": t0}))["refreshToken"]
    time.sleep(2.2)
    t2 = ok(fast.invoke({"refreshToken": t0}))["refreshToken"]
    assert t2 != lost
    ok(fast.invoke({"refreshToken": t2, "action": "list"}))


def test_concurrent_refreshes_leave_exactly_one_working_token(svc):
    sub, data = signup_apple(svc)
    t0 = data["refreshToken"]
    answers = svc.parallel("auth-refresh", [{"refreshToken": t0}] * 8)
    tokens = [a["data"]["refreshToken"] for a in answers if a.get("success")]
    assert tokens, [a.get("error") for a in answers]
    assert all(a.get("success") or a["error"]["code"] == "CONFLICT" for a in answers), [a.get("error") for a in answers]
    assert len(set(tokens)) == len(tokens), "every success returns a distinct token"
    # Exactly one of them is the session's current token, and the session is not revoked...
    import hashlib
    [key] = [k for k in svc.snapshot() if k.startswith(f"users/{data['user']['serviceUserID']}/account/sessions/")]
    record = svc.read_json(key)
    assert record["revokedAt"] is None
    current = [t for t in tokens if hashlib.sha256(t.encode()).hexdigest() == record["current"]["hash"]]
    assert len(current) == 1
    # ...the others stop working without revoking anything, and the current one still works.
    for t in tokens:
        if t != current[0]:
            assert code(svc.refresh(refreshToken=t)) == "SESSION_INVALID"
    ok(svc.refresh(refreshToken=current[0]))


def test_signout(svc):
    sub, data = signup_apple(svc)
    assert ok(svc.refresh(refreshToken=data["refreshToken"], action="signout")) == {"signedOut": True}
    assert code(svc.refresh(refreshToken=data["refreshToken"])) == "SESSION_INVALID"
    # other sessions of the same account are untouched
    other = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))["refreshToken"]
    ok(svc.refresh(refreshToken=other))


# -- credentials ----------------------------------------------------------------------------------

def policy_allows(policy: dict, action: str, resource: str, prefix: str | None = None) -> bool:
    """A small IAM evaluator for the statements this service writes: Allow only, `*` wildcards,
    StringLike on s3:prefix."""
    def like(pattern: str, value: str) -> bool:
        return re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), value) is not None

    for st in policy["Statement"]:
        actions = st["Action"] if isinstance(st["Action"], list) else [st["Action"]]
        resources = st["Resource"] if isinstance(st["Resource"], list) else [st["Resource"]]
        if st["Effect"] != "Allow" or action not in actions or not any(like(r, resource) for r in resources):
            continue
        cond = st.get("Condition", {}).get("StringLike", {}).get("s3:prefix")
        if cond is None or (prefix is not None and any(like(c, prefix) for c in cond)):
            return True
    return False


def test_credentials_and_the_session_policy_sent_to_sts(svc):
    import json as _json
    sub, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    c = data["credentials"]
    s3 = svc.moto.client("s3", c["accessKeyId"], c["secretAccessKey"], c["sessionToken"])
    key = f"users/{uuid}/photos/a.jpg"
    s3.put_object(Bucket=svc.moto.bucket, Key=key, Body=b"jpeg")
    assert s3.get_object(Bucket=svc.moto.bucket, Key=key)["Body"].read() == b"jpeg"

    # moto does not enforce session policies: read the one we sent, as STS recorded it.
    [role] = [r for r in svc.moto.assumed_roles() if r.get("access_key_id") == c["accessKeyId"]]
    assert role["role_arn"] == svc.moto.role_arn and uuid in role["session_name"]
    policy_text = role["policy"]
    assert len(policy_text) <= 2048
    policy = _json.loads(policy_text)
    arn = f"arn:aws:s3:::{svc.moto.bucket}"
    u = f"users/{uuid}"
    for folder in ("photos", "thumbnails", "metadata"):
        for action in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject"):
            assert policy_allows(policy, action, f"{arn}/{u}/{folder}/2026/x.jpg"), (action, folder)
        assert policy_allows(policy, "s3:ListBucket", arn, prefix=f"{u}/{folder}/")
        assert policy_allows(policy, "s3:ListBucket", arn, prefix=f"{u}/{folder}/2026/")
    assert policy_allows(policy, "s3:GetObject", f"{arn}/{u}/account/profile.json")
    denied = [
        ("s3:PutObject", f"{arn}/{u}/account/profile.json", None),
        ("s3:GetObject", f"{arn}/{u}/account/providers.json", None),
        ("s3:GetObject", f"{arn}/{u}/account/sessions/x.json", None),
        ("s3:GetObject", f"{arn}/identities/apple/{sub}", None),
        ("s3:GetObject", f"{arn}/{u}x/photos/a.jpg", None),
        ("s3:GetObject", f"{arn}/users/{uuidlib.uuid4()}/photos/a.jpg", None),
        ("s3:PutObject", f"{arn}/{u}/photosx/a.jpg", None),
        ("s3:ListBucket", arn, u),
        ("s3:ListBucket", arn, f"{u}x/photos/"),
        ("s3:ListBucket", arn, f"{u}/account/"),
        ("s3:ListBucket", arn, None),
        ("s3:DeleteObject", f"{arn}/{u}/account/profile.json", None),
    ]
    for action, resource, prefix in denied:
        assert not policy_allows(policy, action, resource, prefix), (action, resource, prefix)


# -- link and unlink ------------------------------------------------------------------------------

def test_link_then_signin_with_either(svc):
    sub, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    g = google_sub()
    linked = ok(svc.link(refreshToken=data["refreshToken"], provider="google", idToken=svc.idp.google_token(g)))
    assert linked["status"] == "linked"
    assert sorted(p["type"] for p in linked["user"]["providers"]) == ["apple", "google"]
    assert svc.moto.s3().get_object(Bucket=svc.moto.bucket, Key=f"identities/google/{g}")["Body"].read().decode() == uuid
    again = ok(svc.link(refreshToken=data["refreshToken"], provider="google", idToken=svc.idp.google_token(g)))
    assert again["status"] == "already_linked"
    assert ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))["user"]["serviceUserID"] == uuid
    providers = svc.read_json(f"users/{uuid}/account/providers.json")
    assert [(p["type"], p["isPrimary"]) for p in providers["providers"]] == [("apple", True), ("google", False)]


def test_link_identity_of_another_account(svc):
    _, a = signup_apple(svc)
    g = google_sub()
    ok(svc.signin(provider="google", idToken=svc.idp.google_token(g)))  # g has its own account
    before = svc.snapshot()
    assert code(svc.link(refreshToken=a["refreshToken"], provider="google", idToken=svc.idp.google_token(g))) == "PROVIDER_ALREADY_LINKED"
    assert svc.snapshot() == before


def test_unlink(svc):
    sub, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    t = data["refreshToken"]
    assert code(svc.link(refreshToken=t, action="unlink", provider="google")) == "PROVIDER_NOT_LINKED"
    assert code(svc.link(refreshToken=t, action="unlink", provider="apple")) == "LAST_PROVIDER"
    g = google_sub()
    ok(svc.link(refreshToken=t, provider="google", idToken=svc.idp.google_token(g)))
    out = ok(svc.link(refreshToken=t, action="unlink", provider="apple"))
    assert out["status"] == "unlinked" and [p["type"] for p in out["user"]["providers"]] == ["google"]
    assert out["user"]["primaryProvider"] == "google" and out["user"]["providers"][0]["isPrimary"] is True
    assert svc.read_json(f"users/{uuid}/account/profile.json")["primaryProvider"] == "google"
    assert f"identities/apple/{sub}" not in svc.snapshot()
    assert code(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin")) == "ACCOUNT_NOT_FOUND"


def test_link_needs_a_recent_signin(svc):
    slow = svc.start("auth-link", RECENT_AUTH_SECONDS=1)
    _, data = signup_apple(svc)
    time.sleep(2.2)
    before = svc.snapshot()
    assert code(slow.invoke({"refreshToken": data["refreshToken"], "provider": "google", "idToken": svc.idp.google_token(google_sub())})) == "REAUTHENTICATION_REQUIRED"
    assert code(slow.invoke({"refreshToken": data["refreshToken"], "action": "unlink", "provider": "apple"})) == "REAUTHENTICATION_REQUIRED"
    assert svc.snapshot() == before


# -- races ------------------------------------------------------------------------------------------

def test_concurrent_signups_of_one_identity_make_one_account(svc):
    sub = apple_sub()
    answers = svc.parallel("auth-signin", [{"provider": "apple", "idToken": svc.idp.apple_token(sub)} for _ in range(8)])
    uuids = {ok(a)["user"]["serviceUserID"] for a in answers}
    assert len(uuids) == 1
    assert sum(1 for a in answers if a["data"]["isNewUser"]) >= 1
    assert len([k for k in svc.snapshot() if k.endswith("/account/profile.json") and next(iter(uuids)) in k]) == 1


def test_concurrent_links_of_one_identity_have_one_winner(svc):
    accounts = [signup_apple(svc)[1] for _ in range(4)]
    g = google_sub()
    answers = svc.parallel("auth-link", [{"refreshToken": a["refreshToken"], "provider": "google", "idToken": svc.idp.google_token(g)} for a in accounts])
    winners = [a for a in answers if a.get("success")]
    assert len(winners) == 1, [a.get("error") for a in answers]
    assert all(a["error"]["code"] == "PROVIDER_ALREADY_LINKED" for a in answers if not a.get("success"))
    owner = svc.moto.s3().get_object(Bucket=svc.moto.bucket, Key=f"identities/google/{g}")["Body"].read().decode()
    assert owner == winners[0]["data"]["user"]["serviceUserID"]


# -- repair -------------------------------------------------------------------------------------------

def test_half_made_account_is_completed_with_the_same_uuid(svc):
    sub = apple_sub()
    uuid = str(uuidlib.uuid4())
    svc.moto.s3().put_object(Bucket=svc.moto.bucket, Key=f"identities/apple/{sub}", Body=uuid.encode(), ContentType="text/plain")
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin"))
    assert data["user"]["serviceUserID"] == uuid
    keys = svc.snapshot()
    assert f"users/{uuid}/account/profile.json" in keys and f"users/{uuid}/account/providers.json" in keys
    assert f"users/{uuid}/photos/" in keys


def test_half_made_link_is_completed_on_signin(svc):
    _, data = signup_apple(svc)
    uuid = data["user"]["serviceUserID"]
    g = google_sub()
    svc.moto.s3().put_object(Bucket=svc.moto.bucket, Key=f"identities/google/{g}", Body=uuid.encode(), ContentType="text/plain")
    got = ok(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"))
    assert got["user"]["serviceUserID"] == uuid
    assert sorted(p["type"] for p in got["user"]["providers"]) == ["apple", "google"]


# -- secrets stay out of logs -----------------------------------------------------------------------

def test_no_secret_in_any_log_line(svc):
    sub, data = signup_apple(svc)
    id_token = svc.idp.apple_token(sub)
    r = ok(svc.refresh(refreshToken=data["refreshToken"]))
    ok(svc.signin(provider="apple", idToken=id_token))
    svc.signin(provider="apple", idToken=id_token + "x")  # a failure path too
    logs = svc.logs()
    assert logs, "expected log lines"
    secrets = [data["refreshToken"], r["refreshToken"], id_token, id_token.split(".")[2], data["credentials"]["secretAccessKey"],
               data["credentials"]["sessionToken"], svc.moto.secret_access_key]
    for s in secrets:
        assert s not in logs

"""The Apple token stand-in refuses what Apple refuses: client secrets that are not Apple's shape
or not signed with the registered key, reused or expired codes. (Its happy path and outage knobs
are exercised by the Swift client's tests in Tests/SignInWithAppleTests.)"""
import base64
import json
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from signin_tools.standins import AppleAuthServer
from signin_tools.standins.idp import b64url

SUB = "001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234"


@pytest.fixture
def apple(idp):
    with AppleAuthServer(idp) as server:
        yield server


def secret(apple, key=None, header=None, **claims) -> str:
    now = int(time.time())
    hdr = {"alg": "ES256", "kid": apple.key_id, **(header or {})}
    body = {"iss": apple.team_id, "iat": now, "exp": now + 300, "aud": "https://appleid.apple.com",
            "sub": apple.client_id, **claims}
    signing_input = f"{b64url(json.dumps(hdr).encode())}.{b64url(json.dumps(body).encode())}"
    r, s = utils.decode_dss_signature((key or apple.key).sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return f"{signing_input}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def post(apple, path: str, form: dict) -> tuple[int, dict | None]:
    request = urllib.request.Request(apple.auth_url + path, data=urllib.parse.urlencode(form).encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
            return answer.status, json.loads(body) if body else None
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, json.loads(body) if body else None


def exchange(apple, code: str, client_secret: str) -> tuple[int, dict | None]:
    return post(apple, "/auth/token", {"client_id": apple.client_id, "client_secret": client_secret, "code": code,
                                       "grant_type": "authorization_code"})


def test_a_code_is_exchanged_once(apple, idp):
    code = apple.issue_code(SUB)
    status, body = exchange(apple, code, secret(apple))
    assert status == 200 and body["token_type"] == "Bearer" and body["expires_in"] == 3600
    payload = body["id_token"].split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert claims["sub"] == SUB and claims["aud"] == apple.client_id
    assert exchange(apple, code, secret(apple)) == (400, {"error": "invalid_grant",
                                                          "error_description": "The code has expired or has been revoked."})


def test_an_expired_code_is_invalid_grant(apple):
    code = apple.issue_code(SUB)
    sub, email, _ = apple.codes[code]
    apple.codes[code] = (sub, email, time.time() - 1)
    assert exchange(apple, code, secret(apple))[1]["error"] == "invalid_grant"


@pytest.mark.parametrize("change", [
    {"key": "foreign"}, {"header": {"kid": "OTHERKEY12"}}, {"header": {"alg": "ES384"}}, {"iss": "OTHERTEAM1"},
    {"sub": "com.example.other"}, {"aud": "http://127.0.0.1"}, {"exp": int(time.time()) - 10},
    {"iat": int(time.time()) - 5, "exp": int(time.time()) - 5 + 15_777_001}, {"iat": "now"},
    {"iat": int(time.time()) + 3600},
])
def test_a_secret_apple_would_refuse_is_invalid_client(apple, change):
    change = dict(change)
    key = ec.generate_private_key(ec.SECP256R1()) if change.pop("key", None) else None
    header = change.pop("header", None)
    code = apple.issue_code(SUB)
    assert exchange(apple, code, secret(apple, key=key, header=header, **change)) == (400, {"error": "invalid_client"})
    assert code in apple.codes  # client authentication comes first: the code is not spent


def test_revocations_are_recorded(apple):
    form = {"client_id": apple.client_id, "client_secret": secret(apple), "token": "r1.0.mxzs.x",
            "token_type_hint": "refresh_token"}
    assert post(apple, "/auth/revoke", form) == (200, None)
    assert apple.revoked == [("r1.0.mxzs.x", "refresh_token")]
    assert post(apple, "/auth/revoke", {**form, "client_secret": secret(apple, sub="x")}) == (400, {"error": "invalid_client"})
    assert len(apple.revoked) == 1

"""The Apple stand-in's app-transfer side refuses what Apple refuses (signin_tools/standins/
apple_migration.py): the client-credentials grant only with scope user.migration and a client
secret signed with the key of the team it names; /auth/usermigrationinfo only with that team's
unexpired access token, a target that is another known team, users the caller's team has, and a
transfer_sub only for the team it was made for, once the app was transferred there and within 60
days; it throttles when asked to. (Its happy paths are exercised end to end by test_apple_transfer.py.)"""
import json
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from cryptography.hazmat.primitives.asymmetric import ec

from signin_tools.standins.apple_migration import TRANSFER_WINDOW, sub_for, transfer_sub_for
from test_apple_auth_standin import secret
from transfer_support import TEAM_B, TEAM_C, apple  # noqa: F401 (fixture)


def team_secret(apple, team_id: str) -> str:
    team = apple.migration.teams[team_id]
    return secret(apple, key=team.key, header={"kid": team.key_id}, iss=team_id)


def post(apple, path: str, form: dict, bearer: str | None = None) -> tuple[int, dict | None, dict]:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    request = urllib.request.Request(apple.auth_url + path, data=urllib.parse.urlencode(form).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null"), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), dict(error.headers)


def token(apple, team_id: str, scope: str = "user.migration") -> tuple[int, dict | None]:
    status, body, _ = post(apple, "/auth/token", {"grant_type": "client_credentials", "scope": scope,
                                                  "client_id": apple.client_id,
                                                  "client_secret": team_secret(apple, team_id)})
    return status, body


def migrate(apple, team_id: str, bearer: str | None, **form) -> tuple[int, dict | None, dict]:
    return post(apple, "/auth/usermigrationinfo",
                {**form, "client_id": apple.client_id, "client_secret": team_secret(apple, team_id)}, bearer)


def test_the_client_credentials_grant_needs_the_scope_and_the_teams_own_key(apple):
    status, body = token(apple, apple.team_id)
    assert status == 200 and body["token_type"] == "Bearer" and body["expires_in"] == 3600 and body["access_token"]
    assert token(apple, apple.team_id, scope="name email") == (400, {"error": "invalid_scope"})
    # A secret naming team B but signed with the home team's key is not team B's.
    forged = secret(apple, header={"kid": "KEYB000001"}, iss=TEAM_B)
    status, body, _ = post(apple, "/auth/token", {"grant_type": "client_credentials", "scope": "user.migration",
                                                  "client_id": apple.client_id, "client_secret": forged})
    assert (status, body) == (400, {"error": "invalid_client"})


# Each way a client_secret differs from what Apple accepts: the signature (another key), the header
# (another team's kid, alg), the claims iss (another team, an unknown one), sub, aud, exp (past, or
# more than six months after iat) and iat.
REFUSED_SECRETS = [
    {"key": "foreign"}, {"header": {"kid": "KEYB000001"}}, {"header": {"alg": "ES384"}}, {"iss": TEAM_B},
    {"iss": "TEAMZ00000"}, {"sub": "com.example.other"}, {"aud": "http://127.0.0.1"}, {"exp": int(time.time()) - 10},
    {"iat": int(time.time()) - 5, "exp": int(time.time()) - 5 + 15_777_001}, {"iat": int(time.time()) + 3600},
]


@pytest.mark.parametrize("change", REFUSED_SECRETS)
def test_a_client_secret_apple_would_refuse_gets_no_token_and_no_answer(apple, change):
    """The client-credentials grant and /auth/usermigrationinfo authenticate the client as the code
    exchange does: the sending team's secret with one thing wrong is invalid_client at both, where
    the right one gets a token and a transfer_sub."""
    change = dict(change)
    key = ec.generate_private_key(ec.SECP256R1()) if change.pop("key", None) else None
    bad = secret(apple, key=key, header=change.pop("header", None), **change)
    sub = apple.migration.user("eli")
    grant = {"grant_type": "client_credentials", "scope": "user.migration", "client_id": apple.client_id}
    assert post(apple, "/auth/token", {**grant, "client_secret": bad})[:2] == (400, {"error": "invalid_client"})
    status, granted, _ = post(apple, "/auth/token", {**grant, "client_secret": secret(apple)})
    assert status == 200
    form = {"sub": sub, "target": TEAM_B, "client_id": apple.client_id}
    bearer = granted["access_token"]   # the team's good token does not make a bad secret good
    assert post(apple, "/auth/usermigrationinfo", {**form, "client_secret": bad}, bearer)[:2] == (
        400, {"error": "invalid_client"})
    assert apple.migration.counts["transfer_sub"] == 0
    assert post(apple, "/auth/usermigrationinfo", {**form, "client_secret": secret(apple)}, bearer)[:2] == (
        200, {"transfer_sub": transfer_sub_for(TEAM_B, "eli")})


def test_the_sending_side_checks_the_token_the_target_and_the_user(apple):
    sub = apple.migration.user("ada")
    _, granted = token(apple, apple.team_id)
    bearer = granted["access_token"]
    status, body, _ = migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)
    assert status == 200 and body == {"transfer_sub": transfer_sub_for(TEAM_B, "ada")}
    again = migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)[1]
    assert again == body, "the same transfer_sub for the same user and team: deterministic"
    assert migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_C)[1]["transfer_sub"] != body["transfer_sub"]
    assert migrate(apple, apple.team_id, None, sub=sub, target=TEAM_B)[:2] == (400, {"error": "invalid_request"})
    assert migrate(apple, apple.team_id, "x" + bearer[1:], sub=sub, target=TEAM_B)[:2] == (400, {"error": "invalid_grant"})
    _, other = token(apple, TEAM_B)
    assert migrate(apple, apple.team_id, other["access_token"], sub=sub, target=TEAM_B)[:2] == (
        400, {"error": "invalid_grant"}), "another team's token"
    for target in (apple.team_id, "TEAMZ00000"):
        assert migrate(apple, apple.team_id, bearer, sub=sub, target=target)[:2] == (400, {"error": "invalid_request"})
    assert migrate(apple, apple.team_id, bearer, sub="000000.unknown.0000", target=TEAM_B)[:2] == (
        400, {"error": "invalid_request"})
    apple.migration.refuse("ada")
    assert migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)[:2] == (400, {"error": "invalid_request"})


def test_an_expired_token_is_invalid_grant(apple):
    sub = apple.migration.user("bea")
    bearer = token(apple, apple.team_id)[1]["access_token"]
    real = apple.migration.now
    apple.migration.now = lambda: real() + 3601
    try:
        assert migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)[:2] == (400, {"error": "invalid_grant"})
    finally:
        apple.migration.now = real


def test_a_transfer_sub_is_exchanged_only_by_its_team_after_the_transfer_and_within_60_days(apple):
    apple.migration.user("cyd")
    bearer_a = token(apple, apple.team_id)[1]["access_token"]
    t_b = migrate(apple, apple.team_id, bearer_a, sub=apple.migration.user("cyd"), target=TEAM_B)[1]["transfer_sub"]
    t_c = migrate(apple, apple.team_id, bearer_a, sub=apple.migration.user("cyd"), target=TEAM_C)[1]["transfer_sub"]
    bearer_b = token(apple, TEAM_B)[1]["access_token"]
    assert migrate(apple, TEAM_B, bearer_b, transfer_sub=t_b)[:2] == (400, {"error": "invalid_request"}), "not yet moved"
    apple.migration.transfer(TEAM_B)
    status, body, _ = migrate(apple, TEAM_B, bearer_b, transfer_sub=t_b)
    assert status == 200 and body["sub"] == sub_for(TEAM_B, "cyd") != sub_for(apple.team_id, "cyd")
    assert body["is_private_email"] is True
    assert body["email"].endswith("@privaterelay.appleid.com")
    assert migrate(apple, TEAM_B, bearer_b, transfer_sub=t_c)[:2] == (400, {"error": "invalid_request"}), \
        "a transfer_sub made for another team"
    bearer_c = token(apple, TEAM_C)[1]["access_token"]
    assert migrate(apple, TEAM_C, bearer_c, transfer_sub=t_c)[:2] == (400, {"error": "invalid_request"}), \
        "the app is not team C's"
    claims = apple.migration.id_token_claims("cyd")
    assert claims["sub"] == body["sub"] and claims["transfer_sub"] == t_b
    apple.migration.transferred_at -= TRANSFER_WINDOW + 1
    assert "transfer_sub" not in apple.migration.id_token_claims("cyd"), "after 60 days tokens no longer carry it"
    assert migrate(apple, TEAM_B, bearer_b, transfer_sub=t_b)[:2] == (400, {"error": "invalid_request"})


def test_throttling_answers_429_with_retry_after(apple):
    sub = apple.migration.user("dee")
    bearer = token(apple, apple.team_id)[1]["access_token"]
    apple.migration.throttle_next(2, retry_after=3)
    status, body, headers = migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)
    assert status == 429 and headers.get("Retry-After") == "3"
    assert migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)[0] == 429
    assert migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)[0] == 200
    apple.migration.rate_limit(1)
    codes = [migrate(apple, apple.team_id, bearer, sub=sub, target=TEAM_B)[0] for _ in range(5)]
    assert 429 in codes and codes[0] == 200

"""The Swift client (SignInClient) against the real functions through scripts/serve's Function URL
server: each test arms the server's faults, runs one scenario of the `client-check` executable
(Tests/ClientCheck), and checks what the server saw: request counts and the trail of refresh-token
fingerprints (SHA-256 prefixes; tokens are never printed)."""
import json
import subprocess
import uuid

import pytest

from conftest import BUILD_DIR, executable
from token_trail import check_rules, check_v5_rules
from signin_tools.serve import FunctionURLServer

SCENARIO_TIMEOUT = 120
GRACE = 30  # REFRESH_REUSE_GRACE_SECONDS, the default


@pytest.fixture(scope="module")
def server(moto, idp, tmp_path_factory):
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        executable(name)
    srv = FunctionURLServer(BUILD_DIR, lambda name: {**moto.function_env(name), **idp.function_env(), "AWS_LAMBDA_LOG_LEVEL": "INFO"},
                            tmp_path_factory.mktemp("serve-logs"), pool_size=3).start()
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def fresh(server):
    server.reset()  # counts, trail and faults belong to one test


def run(server, idp, tmp_path, scenario: str) -> dict:
    urls = server.urls()
    args = [executable("client-check"), scenario, "--signin", urls["auth-signin"], "--refresh", urls["auth-refresh"],
            "--link", urls["auth-link"], "--apple", idp.apple_token(f"apple-{uuid.uuid4()}"),
            "--google", idp.google_token(f"google-{uuid.uuid4()}"), "--store", str(tmp_path / "session.json")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT)
    assert done.returncode == 0, f"{scenario}: {done.stdout[-500:]} {done.stderr[-1500:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def refreshes(server) -> list[dict]:
    return [t for t in server.trail if t["function"] == "auth-refresh" and t["action"] == "refresh"]


def test_fifty_concurrent_credentials_calls_make_one_refresh(server, idp, tmp_path):
    result = run(server, idp, tmp_path, "concurrent")
    assert result == {"distinctKeys": 1, "renewed": True}, result
    assert server.count("auth-refresh", "refresh") == 1
    check_rules(server.trail, GRACE)
    print(f"\nconcurrency: 50 credentials() calls -> {server.count('auth-refresh', 'refresh')} refresh request(s)")


def test_a_lost_refresh_answer_is_retried_with_the_same_token(server, idp, tmp_path):
    server.inject("drop", times=1)
    result = run(server, idp, tmp_path, "lost")
    assert result == {"sessions": 1, "current": True}, result
    trail = refreshes(server)
    first, retry, normal = trail[0], trail[1], trail[-1]
    assert not first["delivered"] and first["status"] == 200  # the function rotated; the phone never heard
    assert retry["presented"] == first["presented"] and retry["status"] == 200 and retry["delivered"]
    assert normal["presented"] == retry["issued"] and normal["status"] == 200
    issued_but_lost = first["issued"]
    presented = {t["presented"] for t in server.trail} - {None}
    # Only the signed-in token, the retry's answer and the normal rotation's answer were ever
    # presented: never the token of the lost answer, never an older one.
    assert presented == {first["presented"], retry["issued"], normal["issued"]}
    assert issued_but_lost not in presented
    assert all(t["status"] == 200 for t in server.trail)  # nothing revoked, nothing refused
    check_rules(server.trail, GRACE)
    print("\nlost-answer trail: " + " | ".join(
        f"{t['action']} presented {t['presented']} -> {t['status']} issued {t['issued']}"
        f"{'' if t['delivered'] else ' (answer dropped)'}" for t in server.trail))


def test_a_store_that_cannot_be_written_keeps_the_old_token_and_presents_no_unstored_one(server, idp, tmp_path):
    # Contract v5: the rotated token is stored before it is presented.
    result = run(server, idp, tmp_path, "storefail")
    assert result == {"failedWrites": 2, "unstoredMark": "storeUnavailable", "keptAfterMark": True,
                      "markedAfterRotation": True, "listed": 1, "storeHasSession": True,
                      "storeSettled": True}, result
    signin = next(t for t in server.trail if t["function"] == "auth-signin")
    # The mark could not be stored: that refresh never left. The rotation that could not be stored
    # was settled by the list with the same, old token; the unstored token was never presented.
    first, settled = refreshes(server)
    assert first["presented"] == settled["presented"] == signin["issued"], (first, settled)
    assert first["status"] == settled["status"] == 200 and first["issued"] != settled["issued"]
    presented = [t["presented"] for t in server.trail if t.get("presented")]
    assert first["issued"] not in presented
    lists = [t for t in server.trail if t["action"] == "list"]
    assert [t["presented"] for t in lists] == [settled["issued"]]
    check_v5_rules(server.trail)


def test_session_invalid_clears_the_store_and_signs_out(server, idp, tmp_path):
    result = run(server, idp, tmp_path, "invalid")
    assert result["error"] == "SESSION_INVALID" and result["storeEmpty"] and result["user"] == "none", result
    assert result["states"] == ["signedOut(noSession)", "signedIn", "signedOut(sessionEnded)"], result


def test_offline_5xx_and_timeouts_clear_nothing(server, idp, tmp_path):
    server.inject("unavailable", times=3)
    server.inject("stall", times=2, seconds=2)
    result = run(server, idp, tmp_path, "outage")
    # The 503s are retried into the stalled front door, whose timeouts end the first refresh (the
    # client cannot tell a stall from a lost answer); the second, inside the retry window, presents
    # the same token and succeeds.
    assert result["errors"] == ["offline", "timedOut"], result
    assert server.count("auth-refresh", "refresh") >= 6  # 3 throttled, 2 stalled, then the function
    assert result["offlineKept"] and result["kept"] and result["recovered"], result
    assert not any(s.startswith("signedOut(") and s != "signedOut(noSession)" for s in result["states"]), result
    check_rules(server.trail, GRACE)


def test_a_refresh_answer_after_sign_out_is_dropped(server, idp, tmp_path):
    server.inject("delay", times=1, seconds=3)
    result = run(server, idp, tmp_path, "late")
    assert result["refresh"] == "sessionChanged" and result["storeEmpty"] and result["user"] == "none", result
    assert result["states"] == ["signedOut(noSession)", "signedIn", "signedOut(userSignedOut)"], result


@pytest.mark.parametrize("scenario,reason", [("unlink", "signInIdentityUnlinked"), ("delete", "accountDeleted")])
def test_unlink_of_the_sign_in_identity_and_deletion_sign_out(server, idp, tmp_path, scenario, reason):
    result = run(server, idp, tmp_path, scenario)
    assert result["storeEmpty"] and result["states"][-1] == f"signedOut({reason})", result


def test_the_example_program_runs_end_to_end(server, idp, moto, tmp_path):
    urls = server.urls()
    args = [executable("signin-example"), "--signin", urls["auth-signin"], "--refresh", urls["auth-refresh"],
            "--link", urls["auth-link"], "--s3", moto.endpoint, "--token", idp.apple_token(f"apple-{uuid.uuid4()}"),
            "--store", str(tmp_path / "example" / "session.json")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT)
    assert done.returncode == 0, done.stdout[-1500:] + done.stderr[-1500:]
    lines = done.stdout.splitlines()
    uploaded = next(line for line in lines if line.startswith("uploaded "))
    key = uploaded.split(f"s3://{moto.bucket}/", 1)[1].split(":", 1)[0]
    assert moto.s3().get_object(Bucket=moto.bucket, Key=key)["Body"].read()[:2] == b"\xff\xd8"
    assert any(line.startswith("session ") and "current: true" in line for line in lines), lines
    assert "signed out (server confirmed: true)" in lines and "state: signed out (userSignedOut)" in lines, lines
    assert not (tmp_path / "example" / "session.json").exists()

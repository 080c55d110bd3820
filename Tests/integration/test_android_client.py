"""The Android library (android/, Java) against the real functions through scripts/serve's Function
URL server. Each step of a scenario is its own JVM (`ClientScenarios`, android/src/test), like an app
process that can be killed and restarted, over one encrypted session file; the test arms the
server's faults, runs the steps, and checks what the server saw: request counts and the trail of
refresh-token fingerprints (SHA-256 prefixes; tokens are never printed)."""
import json
import subprocess
import time
import urllib.parse
import uuid

import pytest

import token_trail
from conftest import BUILD_DIR, ROOT, executable
from signin_tools.serve import FunctionURLServer
from signin_tools.standins.idp import APPLE_AUDIENCE
from token_trail import trail_text

ANDROID = ROOT / "android"
OUT = ANDROID / "build-out"
JSON_JAR = "/usr/share/java/com.android.json.jar"
STEP_TIMEOUT = 180
APP_LINK = "https://photos.example.com/apple-return"
GRACE = 4  # the client's grace in the outage steps (--grace): its retry window is 1 s shorter


@pytest.fixture(scope="module")
def classpath() -> str:
    if not (OUT / "test-classes").exists():
        subprocess.run([str(ANDROID / "build"), "--compile"], check=True, timeout=600)
    return ":".join(str(p) for p in (OUT / "test-classes", OUT / "classes", OUT / "example-classes")) + ":" + JSON_JAR


@pytest.fixture(scope="module")
def server(moto, idp, tmp_path_factory):
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        executable(name)

    def env(name):
        extra = {"APPLE_WEB_RETURN_TARGET": APP_LINK} if name == "auth-signin" else {}
        return {**moto.function_env(name), **idp.function_env(), "AWS_LAMBDA_LOG_LEVEL": "INFO", **extra}

    srv = FunctionURLServer(BUILD_DIR, env, tmp_path_factory.mktemp("android-serve-logs"), pool_size=3).start()
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def fresh(server):
    server.reset()  # counts, trail and faults belong to one test


class Phone:
    """One app's session file; each step runs in a new JVM."""

    def __init__(self, server, idp, classpath, tmp_path):
        self.server, self.idp, self.classpath = server, idp, classpath
        self.store = tmp_path / "no_backup" / "signin" / "session"
        self.store.parent.mkdir(parents=True)

    def step(self, name: str, *extra: str, expect_exit: int = 0) -> dict:
        urls = self.server.urls()
        args = ["java", "-cp", self.classpath, "dev.signinbackend.client.integration.ClientScenarios", name,
                "--signin", urls["auth-signin"], "--refresh", urls["auth-refresh"], "--link", urls["auth-link"],
                "--store", str(self.store), *extra]
        done = subprocess.run(args, capture_output=True, text=True, timeout=STEP_TIMEOUT)
        assert done.returncode == expect_exit, f"{name}: exit {done.returncode}: {done.stdout[-800:]} {done.stderr[-2000:]}"
        return json.loads(done.stdout.strip().splitlines()[-1]) if expect_exit == 0 else {}

    def signed_in(self) -> dict:
        result = self.step("signin", "--token", self.idp.apple_token(f"001234.{uuid.uuid4().hex}.0001"))
        assert result["isNewUser"] and result["storeExists"], result
        return result


@pytest.fixture
def phone(server, idp, classpath, tmp_path):
    return Phone(server, idp, classpath, tmp_path)


def refreshes(server) -> list[dict]:
    return [t for t in server.trail if t["function"] == "auth-refresh" and t["action"] == "refresh"]


def show(trail: list[dict]) -> str:
    return " | ".join(f"{t['action']} presented {t['presented']} -> {t['status']} issued {t['issued']}"
                      f"{'' if t['delivered'] else ' (answer dropped)'}" for t in trail)


def test_fifty_concurrent_credentials_calls_near_expiry_make_one_refresh(server, phone):
    phone.signed_in()
    server.reset()
    result = phone.step("concurrent")
    assert result == {"distinctKeys": 1, "renewed": True}, result
    assert server.count("auth-refresh", "refresh") == 1
    print(f"\nandroid concurrency: 50 credentials() calls -> {server.count('auth-refresh', 'refresh')} refresh request(s)")


def test_a_dropped_answer_is_retried_with_the_same_token_inside_the_grace(server, phone):
    phone.signed_in()
    server.inject("drop", times=1)
    assert phone.step("refresh")["refreshed"]
    assert phone.step("refresh")["refreshed"]
    assert phone.step("list")["sessions"] == 1
    trail = refreshes(server)
    first, retry, normal = trail[0], trail[1], trail[-1]
    assert not first["delivered"] and first["status"] == 200  # the function rotated; the phone never heard
    assert retry["presented"] == first["presented"] and retry["status"] == 200 and retry["delivered"]
    assert normal["presented"] == retry["issued"] and normal["status"] == 200
    presented = {t["presented"] for t in server.trail} - {None}
    # Never the token of the dropped answer, never an older one; nothing refused, nothing revoked.
    assert first["issued"] not in presented
    assert presented == {first["presented"], retry["issued"], normal["issued"]}
    assert all(t["status"] == 200 for t in server.trail), show(server.trail)
    print("\nandroid dropped-answer trail: " + show(server.trail))


@pytest.mark.parametrize("fault,status", [("unavailable", 503), ("throttle", 429)])
def test_an_outage_or_throttling_keeps_the_session(server, phone, fault, status):
    phone.signed_in()
    server.inject(fault, times=1000)
    result = phone.step("refresh", "--grace", str(GRACE * 1000))
    assert result["kind"] == "UNAVAILABLE" and result["status"] == status, result
    assert result["recommendation"] == "RETRY_LATER" and result["storeExists"] and result["user"] == "some", result
    assert server.count("auth-refresh", "refresh") > 1, "retried inside the grace"
    assert not any(s.startswith("SIGNED_OUT(") and s != "SIGNED_OUT(NO_SESSION)" for s in result["states"]), result
    server.reset()
    assert phone.step("refresh")["refreshed"]  # the next launch: the session was kept, and works
    assert [t["status"] for t in refreshes(server)] == [200]


def test_a_lost_answer_is_never_presented_after_the_window_even_by_a_restarted_process(server, phone):
    phone.signed_in()
    server.reset()
    server.inject("drop", times=1000)  # every refresh reaches the function, which rotates; no answer is read
    lost = phone.step("refresh", "--grace", str(GRACE * 1000))
    assert lost["kind"] == "CONNECTION_LOST" and lost["recommendation"] == "RETRY_LATER", lost
    assert lost["storeExists"] and lost["user"] == "some" and lost["states"] == ["SIGNED_IN"], lost
    server.clear_faults()
    seen = len(server.trail)
    assert seen >= 2 and all(not t["delivered"] and t["status"] == 200 for t in server.trail), show(server.trail)
    time.sleep(GRACE + 1)  # past the client's window (its grace minus 1 s) and its grace
    relaunch = phone.step("refresh", "--grace", str(GRACE * 1000))  # a new process: only the stored mark tells it
    assert relaunch["kind"] == "NOT_SIGNED_IN" and relaunch["recommendation"] == "SIGN_IN_AGAIN", relaunch
    assert not relaunch["storeExists"] and relaunch["states"] == ["SIGNED_IN", "SIGNED_OUT(SESSION_ENDED)"], relaunch
    assert phone.step("list", "--grace", str(GRACE * 1000))["kind"] == "NOT_SIGNED_IN"
    assert len(server.trail) == seen, "presented again after the window:\n" + trail_text(server.trail)
    assert {t["presented"] for t in server.trail} == {server.trail[0]["presented"]}  # one token, never a lost one
    token_trail.check_rules(server.trail, GRACE)  # nothing after the grace, nothing refused or revoked
    print("\nandroid lost-past-the-window trail:\n" + trail_text(server.trail))


def test_session_invalid_after_a_sign_out_elsewhere_signs_out_and_clears_the_store(server, phone):
    phone.signed_in()
    assert phone.step("signout-elsewhere")["confirmed"]
    result = phone.step("refresh")
    assert result["error"] == "SESSION_INVALID" and result["recommendation"] == "SIGN_IN_AGAIN", result
    assert not result["storeExists"] and result["user"] == "none", result
    assert result["states"] == ["SIGNED_IN", "SIGNED_OUT(SESSION_ENDED)"], result


def test_a_sign_out_racing_a_held_refresh_drops_the_late_answer(server, phone):
    phone.signed_in()
    server.inject("delay", times=1, seconds=3)
    result = phone.step("late")
    assert result["refresh"] == "SESSION_CHANGED" and not result["storeExists"] and result["user"] == "none", result
    assert result["states"] == ["SIGNED_IN", "SIGNED_OUT(USER_SIGNED_OUT)"], result


@pytest.mark.parametrize("when", ["before-save", "after-save"])
def test_a_process_killed_right_after_an_answer_restarts_fine(server, phone, when):
    phone.signed_in()
    server.reset()
    phone.step("halt", "--when", when, expect_exit=3)  # the JVM dies the moment the answer arrives
    assert phone.step("refresh")["refreshed"]  # the restart
    assert phone.step("list")["sessions"] == 1
    killed, restart = refreshes(server)
    # Killed before its store write: the restart presents the token it had (the server's grace);
    # killed after it: the new one. Nothing refused, nothing revoked.
    assert restart["presented"] == (killed["presented"] if when == "before-save" else killed["issued"])
    assert all(t["status"] == 200 for t in server.trail), show(server.trail)


def test_a_tampered_store_is_unreadable_not_signed_out(server, phone):
    phone.signed_in()
    server.reset()
    sealed = phone.store.read_bytes()
    tampered = bytearray(sealed)
    tampered[len(tampered) // 2] ^= 0x01
    phone.store.write_bytes(bytes(tampered))
    result = phone.step("state")
    assert result["error"] == "STORE_UNREADABLE" and result["recommendation"] == "RETRY_LATER", result
    assert result["states"] == ["UNKNOWN"] and result["storeExists"], result
    assert phone.store.read_bytes() == bytes(tampered), "nothing was cleared or rewritten"
    assert server.trail == [] and server.count("auth-refresh", "refresh") == 0
    phone.store.write_bytes(sealed)  # readable again: the session was never signed out
    assert phone.step("refresh")["refreshed"]


def apple_post(server, form: dict | str, method="POST", content_type="application/x-www-form-urlencoded", query=""):
    import http.client

    base = urllib.parse.urlsplit(server.urls()["auth-signin"])
    body = form if isinstance(form, str) else urllib.parse.urlencode(form)
    conn = http.client.HTTPConnection(base.hostname, base.port, timeout=60)
    conn.request(method, base.path + "/apple/callback" + (f"?{query}" if query else ""), body=body.encode(),
                 headers={"Content-Type": content_type, "Origin": "https://appleid.apple.com"})
    response = conn.getresponse()
    page = response.read().decode()
    conn.close()
    return response.status, response.getheader("location"), page


def test_apples_web_flow_through_the_return_url_signs_in(server, idp, phone, tmp_path):
    request_file = tmp_path / "apple-request.json"
    request = phone.step("apple-request", "--services-id", APPLE_AUDIENCE, "--request", str(request_file))
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request["authorizationUrl"]).query))
    assert query["redirect_uri"] == server.urls()["auth-signin"] + "/apple/callback"
    assert query["response_mode"] == "form_post" and query["state"] == request["state"]
    # Apple posts its form_post: the ID token carries the nonce's hash, as Apple's does.
    token = idp.apple_token(f"001234.{uuid.uuid4().hex}.0001", nonce=request["rawNonce"])
    user = json.dumps({"name": {"firstName": "Ada", "lastName": "Lovelace"}, "email": "ada@privaterelay.appleid.com"})
    status, location, _ = apple_post(server, {"state": request["state"], "code": "c1a2b3.0.abcd.efgh",
                                              "id_token": token, "user": user})
    assert status == 303 and location.startswith(APP_LINK + "#"), (status, location)
    result = phone.step("apple-return", "--request", str(request_file), "--location", location)
    assert result["isNewUser"] and result["fullName"] == "Ada Lovelace" and result["states"][-1] == "SIGNED_IN", result


def test_the_return_url_stores_and_logs_nothing_and_refuses_everything_else(server, idp, moto):
    token = idp.apple_token(f"001234.{uuid.uuid4().hex}.0001")
    apples = {"state": "st-7f3a9c2e", "code": "c7f3a9c2e.0.ab", "id_token": token}
    before = {o["Key"] for o in moto.s3().list_objects_v2(Bucket=moto.bucket).get("Contents", [])}
    status, location, _ = apple_post(server, apples)
    assert status == 303 and location == f"{APP_LINK}#id_token={token}&code=c7f3a9c2e.0.ab&state=st-7f3a9c2e"
    # A field Apple does not send today is dropped, never forwarded (issue 32): the target stays the configured one.
    status, location, _ = apple_post(server, {**apples, "redirect_uri": "https://evil.example/steal"})
    assert status == 303 and location == f"{APP_LINK}#id_token={token}&code=c7f3a9c2e.0.ab&state=st-7f3a9c2e"
    refusals = {
        "a target in the query": apple_post(server, apples, query="target=https%3A%2F%2Fevil.example"),
        "a GET": apple_post(server, "", method="GET", query=urllib.parse.urlencode(apples)),
        "a missing id_token": apple_post(server, {"state": "st-7f3a9c2e", "code": "c7f3a9c2e.0.ab"}),
        "an oversized body": apple_post(server, {**apples, "user": "x" * 70_000}),
        "JSON instead of a form": apple_post(server, json.dumps(apples), content_type="application/json"),
    }
    for what, (status, location, page) in refusals.items():
        assert status == 400 and location is None, what
        assert "evil" not in page and token[:20] not in page and page.startswith("<!doctype html>"), what
    after = {o["Key"] for o in moto.s3().list_objects_v2(Bucket=moto.bucket).get("Contents", [])}
    assert after == before, "the return URL stores nothing"
    logs = "".join(p.read_text(errors="replace") for p in server.log_dir.glob("auth-signin*"))
    for secret in (token, token.split(".")[2], "st-7f3a9c2e", "c7f3a9c2e.0.ab", "evil.example"):
        assert secret not in logs, f"the return URL logged {secret[:12]}…"


def test_the_example_program_signs_in_and_uploads_with_its_credentials(server, idp, moto, classpath, tmp_path):
    urls = server.urls()
    store = tmp_path / "example" / "session"
    args = ["java", "-cp", classpath, "dev.signinbackend.example.UploadExample", "--signin", urls["auth-signin"],
            "--refresh", urls["auth-refresh"], "--link", urls["auth-link"], "--s3", moto.endpoint,
            "--token", idp.apple_token(f"001234.{uuid.uuid4().hex}.0001"), "--store", str(store)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=STEP_TIMEOUT)
    assert done.returncode == 0, done.stdout[-1500:] + done.stderr[-1500:]
    lines = done.stdout.splitlines()
    uploaded = next(line for line in lines if line.startswith("uploaded "))
    key = uploaded.split(f"s3://{moto.bucket}/", 1)[1].split(":", 1)[0]
    assert moto.s3().get_object(Bucket=moto.bucket, Key=key)["Body"].read()[:2] == b"\xff\xd8"
    assert any(line.startswith("session ") and "current: true" in line for line in lines), lines
    assert "signed out (server confirmed: true)" in lines and "state: signed out (USER_SIGNED_OUT)" in lines, lines
    assert not store.exists()

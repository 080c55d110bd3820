"""CONTRACT.md's "The app's clients" (v4), for the Swift client against the real functions through
scripts/serve's Function URL server: an app extension in a process of its own over the app's file
store, an attempt held before it reaches the function (a delaying proxy), a device clock two hours
ahead, an unreadable answer after the server rotated, Lambda's 429. In every scenario the server's
trail of presented and issued refresh tokens (fingerprints) shows that no token was presented after
its grace and no session was refused or revoked.

The server runs with the functions' real Timeout (10 s, as template.yaml) and a grace shortened to
GRACE seconds (REFRESH_REUSE_GRACE_SECONDS, which a deployment sets), so "after the grace" is quick;
the client's retry window is shortened with it (`--window`)."""
import json
import select
import subprocess
import time
import uuid

import pytest

import token_trail
from conftest import BUILD_DIR, executable
from token_trail import trail_text
from signin_tools.serve import FunctionURLServer
from signin_tools.standins.delay_proxy import DelayProxy

GRACE = 4
WINDOW = 2
FUNCTION_TIMEOUT = 10  # template.yaml, Globals.Function.Timeout
SCENARIO_TIMEOUT = 120


@pytest.fixture(scope="module")
def server(moto, idp, tmp_path_factory):
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        executable(name)
    env = {"AWS_LAMBDA_LOG_LEVEL": "INFO", "REFRESH_REUSE_GRACE_SECONDS": str(GRACE),
           "AWS_LAMBDA_FUNCTION_TIMEOUT": str(FUNCTION_TIMEOUT)}
    srv = FunctionURLServer(BUILD_DIR, lambda name: {**moto.function_env(name), **idp.function_env(), **env},
                            tmp_path_factory.mktemp("serve-rules-logs"), pool_size=2).start()
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def fresh(server):
    server.reset()


def arguments(urls: dict, idp, store) -> list[str]:
    return ["--signin", urls["auth-signin"], "--refresh", urls["auth-refresh"], "--link", urls["auth-link"],
            "--apple", idp.apple_token(f"apple-{uuid.uuid4()}"), "--store", str(store), "--window", str(WINDOW)]


def run(args: list[str], scenario: str, *extra: str) -> dict:
    done = subprocess.run([executable("client-check"), scenario, *args, *extra], capture_output=True, text=True,
                          timeout=SCENARIO_TIMEOUT)
    assert done.returncode == 0, f"{scenario}: {done.stdout[-500:]} {done.stderr[-1500:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def check_rules(trail: list[dict]) -> None:
    token_trail.check_rules(trail, GRACE)


def read_line(proc: subprocess.Popen, deadline: float = 30) -> str:
    ready, _, _ = select.select([proc.stdout], [], [], deadline)
    assert ready, "client-check extension did not answer in time"
    return proc.stdout.readline().strip()


def test_an_extension_presents_only_the_token_the_store_holds_now(server, idp, tmp_path):
    args = arguments(server.urls(), idp, tmp_path / "shared" / "session.json")
    run(args, "signin")
    extension = subprocess.Popen([executable("client-check"), "extension", *args], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        assert read_line(extension) == "ready"  # it has read the app's store (the sign-in's token)
        run(args, "app-refresh")  # the app rotates; the extension's copy is now rotated out
        extension.stdin.write("go\n")  # inside the grace
        assert read_line(extension) == "done"
        run(args, "app-refresh")  # the app rotates again ...
        time.sleep(GRACE + 1)  # ... and the extension's last copy is past its grace
        extension.stdin.write("go\n")
        assert read_line(extension) == "done"
        extension.stdin.close()  # end of input: the extension prints its results and exits
        extension.wait(timeout=30)
        out, err = extension.stdout.read(), extension.stderr.read()
    finally:
        if extension.poll() is None:
            extension.kill()
            extension.wait(timeout=10)
    result = json.loads(out.strip().splitlines()[-1])
    assert result == {"signedIn": True, "results": ["listed 1", "listed 1"], "storeHasSession": True}, (result, err)
    assert run(args, "app-list") == {"sessions": 1}  # the app's session lives: nothing cleared, nothing revoked
    trail = server.trail
    lists = [t for t in trail if t["action"] == "list"]
    refreshes = [t for t in trail if t["action"] == "refresh"]
    assert [t["presented"] for t in lists[:2]] == [refreshes[0]["issued"], refreshes[1]["issued"]]
    check_rules(trail)
    print("\nextension trail (app refresh, extension list, app refresh, extension list after the grace, app list):\n"
          + trail_text(trail))


def test_an_attempt_reaching_the_function_late_is_awaited_not_overtaken(server, idp, tmp_path):
    proxy = DelayProxy(server.base_url).start()
    try:
        held = 8.5  # longer than the 8 s the client used to wait, shorter than the function's timeout
        proxy.hold("auth-refresh", "refresh", held)
        urls = {name: f"{proxy.base_url}/{name}" for name in server.urls()}
        result = run(arguments(urls, idp, tmp_path / "session.json"), "overtake", "--after", str(GRACE + 1))
    finally:
        proxy.stop()
    assert result["sessions"] == 1 and held <= result["waited"] < FUNCTION_TIMEOUT + 5, result
    trail = server.trail
    refreshes = [t for t in trail if t["action"] == "refresh"]
    assert len(refreshes) == 2, trail_text(trail)  # one attempt each: nothing retried beside the held one
    assert refreshes[1]["presented"] == refreshes[0]["issued"]  # the held attempt's answer was the one kept
    first_refresh = next(e for e in proxy.events if e["action"] == "refresh")
    assert first_refresh["held"] == held and first_refresh["delivered"]
    check_rules(trail)
    print("\novertaking trail (sign-in, refresh held 8.5 s by the proxy, refresh after the grace, list):\n"
          + trail_text(trail))


def test_a_device_clock_two_hours_ahead_refreshes_nothing(server, idp, tmp_path):
    result = run(arguments(server.urls(), idp, tmp_path / "session.json"), "clock")
    assert result == {"distinctKeys": 1, "sessions": 1}, result
    assert server.count("auth-refresh", "refresh") == 0  # 40 credentials() calls over 20 device minutes
    check_rules(server.trail)


@pytest.mark.parametrize("fault", ["corrupt", "throttle"])
def test_an_unreadable_or_throttled_answer_is_retried_inside_the_grace(server, idp, tmp_path, fault):
    server.inject(fault, times=1)
    result = run(arguments(server.urls(), idp, tmp_path / "session.json"), "refresh")
    assert result == {"sessions": 1}, result
    trail = server.trail
    refreshes = [t for t in trail if t["action"] == "refresh"]
    if fault == "corrupt":  # the function rotated, the client could not read it: the same token again
        first, retry = refreshes
        assert not first["delivered"] and first["status"] == 200
        assert retry["presented"] == first["presented"] and retry["delivered"]
    else:  # Lambda did not invoke the function: the retry is the only refresh it saw
        assert len(refreshes) == 1 and server.count("auth-refresh", "refresh") == 2
    check_rules(trail)


def test_a_lost_answer_is_never_presented_after_the_window_even_by_a_relaunched_app(server, idp, tmp_path):
    args = arguments(server.urls(), idp, tmp_path / "session.json")
    run(args, "signin")
    server.inject("drop", times=1000)  # every refresh reaches the function, which rotates; no answer is read
    lost = run(args, "app-try")
    assert lost == {"outcomes": ["answerLost"], "storeHasSession": True, "states": ["signedIn"]}, lost
    server.clear_faults()
    seen = len(server.trail)
    refreshes = [t for t in server.trail if t["action"] == "refresh"]
    assert len(refreshes) >= 2 and all(not t["delivered"] and t["status"] == 200 for t in refreshes), trail_text(
        server.trail)
    time.sleep(GRACE + 1)  # past the client's window and the server's grace
    relaunch = run(args, "app-try", "--list", "yes")  # a new process: only the stored mark tells it
    assert relaunch["outcomes"] == ["notSignedIn", "notSignedIn"] and not relaunch["storeHasSession"], relaunch
    assert relaunch["states"] == ["signedIn", "signedOut(sessionEnded)"], relaunch
    assert len(server.trail) == seen, "presented again after the window:\n" + trail_text(server.trail)
    assert {t["presented"] for t in refreshes} == {refreshes[0]["presented"]}  # one token, never a lost one
    check_rules(server.trail)  # nothing after the grace, nothing refused or revoked
    print("\nlost-past-the-window trail (sign-in, refreshes whose answers were dropped, then nothing):\n"
          + trail_text(server.trail))

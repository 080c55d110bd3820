"""CONTRACT.md's "The app's clients" (v4, and v5's "A phone's life never ends a session"), for the
Swift client against the real functions through scripts/serve's Function URL server: an app
extension in a process of its own over the app's file store, an attempt held before it reaches the
function (a delaying proxy), a device clock two hours ahead, an unreadable answer after the server
rotated, Lambda's 429; and a phone's life as processes: an app frozen (SIGSTOP) in the middle of a
refresh the server committed, for ten times the grace, then resumed (SIGCONT); a process killed
(SIGKILL) there and relaunched ten graces later; an extension reading the store while the app's
refresh is in flight; two processes of the app over one store. The server's trail of presented and
issued refresh tokens (fingerprints) shows that nothing was refused or revoked, and (v4) no token
was presented after its grace or (v5) after its successor was presented.

The server runs with the functions' real Timeout (10 s, as template.yaml) and a grace shortened to
GRACE seconds (REFRESH_REUSE_GRACE_SECONDS, which a deployment sets), so "after the grace" is quick.
The client has no retry window since v5: nothing to shorten."""
import json
import os
import select
import signal
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
            "--apple", idp.apple_token(f"apple-{uuid.uuid4()}"), "--store", str(store)]


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


def start(args: list[str], scenario: str, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([executable("client-check"), scenario, *args, *extra], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def finish(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=SCENARIO_TIMEOUT)
    assert proc.returncode == 0, f"{out[-500:]} {err[-1500:]}"
    return json.loads(out.strip().splitlines()[-1])


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout=10)


def refreshes(trail: list[dict]) -> list[dict]:
    return sorted((t for t in trail if t["action"] == "refresh"), key=lambda t: t["arrived"])


def wait_for_rotation(server, count: int = 1, seconds: float = 30) -> None:
    """Until the server has rotated `count` times (its answer sent, or held by the proxy)."""
    for _ in range(int(seconds / 0.1)):
        if len([t for t in refreshes(server.trail) if t["status"] == 200]) >= count:
            return
        time.sleep(0.1)
    raise AssertionError("the server never rotated:\n" + trail_text(server.trail))


def proxied(server) -> tuple[DelayProxy, dict]:
    proxy = DelayProxy(server.base_url).start()
    return proxy, {name: f"{proxy.base_url}/{name}" for name in server.urls()}


def test_a_lost_answer_is_retried_after_the_grace_even_by_a_relaunched_app(server, idp, tmp_path):
    args = arguments(server.urls(), idp, tmp_path / "session.json")
    run(args, "signin")
    server.inject("drop", times=1000)  # every refresh reaches the function, which rotates; no answer is read
    lost = run(args, "app-try")
    assert lost == {"outcomes": ["answerLost"], "storeHasSession": True, "states": ["signedIn"]}, lost
    server.clear_faults()
    dropped = refreshes(server.trail)
    assert len(dropped) >= 2 and all(not t["delivered"] and t["status"] == 200 for t in dropped), trail_text(
        server.trail)
    time.sleep(GRACE + 1)  # past the server's grace: v5 still takes the token, its successors never presented
    relaunch = run(args, "app-try", "--list", "yes")  # a new process: only the stored mark tells it
    assert relaunch["outcomes"] == ["refreshed", "listed 1"] and relaunch["storeHasSession"], relaunch
    assert "signedOut" not in " ".join(relaunch["states"]), relaunch
    retry = refreshes(server.trail)[-1]
    assert retry["presented"] == dropped[0]["presented"] and retry["delivered"]  # the same token, late
    assert {t["presented"] for t in dropped} == {dropped[0]["presented"]}
    token_trail.check_v5_rules(server.trail)
    print("\nlost-then-relaunched trail (sign-in, refreshes whose answers were dropped, the relaunch's"
          " retry after the grace, list):\n" + trail_text(server.trail))


def test_an_app_frozen_mid_refresh_for_ten_graces_comes_back_signed_in(server, idp, tmp_path):
    proxy, urls = proxied(server)
    try:
        args = arguments(urls, idp, tmp_path / "session.json")
        run(args, "signin")
        proxy.hold_answer("auth-refresh", "refresh", 3, drop=True)  # committed; the answer is then lost
        app = start(args, "app-try", "--list", "yes")
        try:
            wait_for_rotation(server)
            os.kill(app.pid, signal.SIGSTOP)  # iOS suspends the app in the middle of its refresh
            time.sleep(10 * GRACE)
            os.kill(app.pid, signal.SIGCONT)
            result = finish(app)
        finally:
            stop(app)
        events = list(proxy.events)
    finally:
        proxy.stop()
    assert result["outcomes"] == ["refreshed", "listed 1"] and result["storeHasSession"], result
    assert "signedOut" not in " ".join(result["states"]), result
    first, retry = refreshes(server.trail)
    assert first["status"] == 200 and first["issued"]  # the server rotated ...
    assert not next(e for e in events if e["action"] == "refresh")["delivered"]  # ... the app never read it
    assert retry["presented"] == first["presented"]  # resumed: the same token, ten graces later
    lists = [t for t in server.trail if t["action"] == "list"]
    assert [t["presented"] for t in lists] == [retry["issued"]]
    token_trail.check_v5_rules(server.trail)
    print("\nfrozen trail (sign-in, refresh whose answer the frozen app never read, its retry after"
          f" SIGCONT {10 * GRACE} s later, list):\n" + trail_text(server.trail))


def test_an_app_killed_mid_refresh_is_signed_in_when_relaunched_ten_graces_later(server, idp, tmp_path):
    proxy, urls = proxied(server)
    try:
        args = arguments(urls, idp, tmp_path / "session.json")
        run(args, "signin")
        proxy.hold_answer("auth-refresh", "refresh", 30, drop=True)
        app = start(args, "app-try")
        try:
            wait_for_rotation(server)
            os.kill(app.pid, signal.SIGKILL)  # swiped away, or a low-memory kill, after the server committed
            app.wait(timeout=10)
        finally:
            stop(app)
        time.sleep(10 * GRACE)
        relaunch = run(args, "app-relaunch")  # asks for the sessions first: the mark makes it settle first
    finally:
        proxy.stop()
    assert relaunch["outcomes"] == ["listed 1", "credentials"] and relaunch["storeHasSession"], relaunch
    assert "signedOut" not in " ".join(relaunch["states"]), relaunch
    first, retry = refreshes(server.trail)
    assert first["status"] == 200 and first["issued"] and retry["presented"] == first["presented"]
    lists = [t for t in server.trail if t["action"] == "list"]
    assert [t["presented"] for t in lists] == [retry["issued"]]
    token_trail.check_v5_rules(server.trail)
    print(f"\nkilled trail (sign-in, refresh of the killed app, the relaunch {10 * GRACE} s later: its refresh"
          " with the same token, then list):\n" + trail_text(server.trail))


def test_an_extension_reading_the_store_while_the_apps_refresh_is_in_flight_presents_nothing(server, idp, tmp_path):
    proxy, urls = proxied(server)
    extension = app = None
    try:
        args = arguments(urls, idp, tmp_path / "shared" / "session.json")
        run(args, "signin")
        extension = start(args, "extension")
        assert read_line(extension) == "ready"
        proxy.hold_answer("auth-refresh", "refresh", 6)  # the app's refresh: committed, its answer on the way
        app = start(args, "app-try")
        wait_for_rotation(server)
        extension.stdin.write("go\n")  # the store holds the marked token: nothing to present
        assert read_line(extension) == "done"
        app_result = finish(app)
        extension.stdin.write("go\n")  # the app's rotation is stored now
        assert read_line(extension) == "done"
        result = finish(extension)
    finally:
        for proc in (extension, app):
            if proc is not None:
                stop(proc)
        proxy.stop()
    assert app_result["outcomes"] == ["refreshed"], app_result
    assert result == {"signedIn": True, "results": ["refreshNotAllowed", "listed 1"], "storeHasSession": True}, result
    (rotation,) = refreshes(server.trail)
    lists = [t for t in server.trail if t["action"] == "list"]
    assert [t["presented"] for t in lists] == [rotation["issued"]]
    token_trail.check_v5_rules(server.trail)
    print("\nextension-in-flight trail (sign-in, the app's refresh, the extension's list once it was"
          " stored):\n" + trail_text(server.trail))


def test_two_processes_of_the_app_over_one_store_make_one_refresh_of_a_token(server, idp, tmp_path):
    proxy, urls = proxied(server)
    first = None
    try:
        args = arguments(urls, idp, tmp_path / "session.json")
        run(args, "signin")
        proxy.hold_answer("auth-refresh", "refresh", 6)
        first = start(args, "app-try")
        wait_for_rotation(server)
        second = run(args, "app-try", "--list", "yes")  # meanwhile, a second process of the app
        first_result = finish(first)
    finally:
        if first is not None:
            stop(first)
        proxy.stop()
    time.sleep(GRACE + 1)
    final = run(arguments(server.urls(), idp, tmp_path / "session.json"), "app-list")  # what the store holds
    assert first_result["outcomes"] == ["refreshed"] and second["outcomes"] == ["refreshed", "listed 1"], (
        first_result, second)
    assert final == {"sessions": 1}, final
    rotations = refreshes(server.trail)
    assert len(rotations) == 2 and rotations[1]["presented"] == rotations[0]["issued"], trail_text(server.trail)
    token_trail.check_v5_rules(server.trail)
    print("\ntwo-processes trail (sign-in, the first process's refresh, the second's refresh of its"
          " rotation, the second's list, a later launch's list):\n" + trail_text(server.trail))

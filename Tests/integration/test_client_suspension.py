"""Both clients meet a Google identity that Google's Cross-Account Protection reported hijacked
(contract v4, "Google's security events"; issue 25), against the real functions behind
scripts/serve's Function URL server, with the security events delivered by the loopback
transmitter (signin_tools/standins/google_risc.py) to that server's auth-link URL as Google pushes
them. Each step is its own process over a device's store: the Swift client's `client-check`
(Tests/ClientCheck/SuspensionCheck.swift) and the Android library's `ClientScenarios`
(android/src/test). The two clients must hold the same rule (docs/client.md, "The two clients,
rule by rule"):
- the device signed in with that Google account is signed out at its next refresh
  (SESSION_INVALID: the session is cleared);
- signing in with it, or linking it, answers IDENTITY_SUSPENDED, which each client maps to its
  own "tell the user" case (use the other provider, or secure the Google account) and which clears
  nothing: the account's other device stays signed in;
- once Google reports the account enabled, signing in with it works again, into the same account."""
import json
import subprocess
import time

import pytest

from conftest import BUILD_DIR, executable
from service_support import apple_sub, google_sub
from signin_tools.serve import FunctionURLServer
from signin_tools.standins.google_risc import push
from test_android_client import Phone, classpath  # noqa: F401 (fixture)

STEP_TIMEOUT = 120


@pytest.fixture(scope="module")
def server(moto, idp, risc, tmp_path_factory):
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        executable(name)

    def env(name):
        return {**moto.function_env(name), **idp.function_env(), **risc.function_env(), "AWS_LAMBDA_LOG_LEVEL": "INFO"}

    srv = FunctionURLServer(BUILD_DIR, env, tmp_path_factory.mktemp("suspension-serve-logs"), pool_size=2).start()
    yield srv
    srv.stop()


def deliver(server, risc, event: str, sub: str, **claims) -> str:
    """Google's push of one security event to auth-link's Function URL: the event's outcome."""
    status, body = push(server.urls()["auth-link"], risc.token(event, sub=sub, **claims))
    assert status == 202, f"{event}: HTTP {status} {body[:300]!r}"
    return json.loads(body)["data"]["status"]


class SwiftDevice:
    """One device's store, each step a `client-check` process."""

    def __init__(self, server, path):
        self.server, self.store = server, path

    def step(self, name: str, **args: str) -> dict:
        urls = self.server.urls()
        argv = [executable("client-check"), name, "--signin", urls["auth-signin"], "--refresh", urls["auth-refresh"],
                "--link", urls["auth-link"], "--store", str(self.store)]
        for key, value in args.items():
            argv += [f"--{key}", value]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=STEP_TIMEOUT)
        assert done.returncode == 0, f"{name}: exit {done.returncode}: {done.stdout[-500:]} {done.stderr[-1500:]}"
        return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_swift_client_maps_identity_suspended_and_keeps_the_other_devices_session(server, idp, risc, tmp_path):
    g = google_sub()
    apple_phone, google_phone = SwiftDevice(server, tmp_path / "apple.json"), SwiftDevice(server, tmp_path / "google.json")
    first = apple_phone.step("signin-with", provider="apple", intent="signup", token=idp.apple_token(apple_sub()))
    assert first["isNewUser"], first
    assert apple_phone.step("link-with", provider="google", token=idp.google_token(g))["providers"] == ["apple", "google"]
    assert google_phone.step("signin-with", provider="google", intent="signin", token=idp.google_token(g))[
        "serviceUserID"] == first["serviceUserID"]

    issued = int(time.time())
    assert deliver(server, risc, "account-disabled", g, reason="hijacking", iat=issued) == "processed"

    # The Google device: signed out at its next refresh; signing in again is IDENTITY_SUSPENDED.
    ended = google_phone.step("app-try")
    assert ended["outcomes"] == ["SESSION_INVALID"] and not ended["storeHasSession"], ended
    assert ended["states"][-1] == "signedOut(sessionEnded)", ended
    for intent in ("signin", "auto"):
        refused = google_phone.step("signin-with", provider="google", intent=intent, token=idp.google_token(g))
        assert (refused["error"], refused["recommendation"]) == ("IDENTITY_SUSPENDED", "tellUser(identitySuspended)"), \
            refused
        assert not refused["storeHasSession"] and refused["user"] == "none", refused
    # The Apple device: linking it again is refused the same way, and nothing is signed out.
    refused = apple_phone.step("link-with", provider="google", token=idp.google_token(g))
    assert (refused["error"], refused["recommendation"]) == ("IDENTITY_SUSPENDED", "tellUser(identitySuspended)"), refused
    assert refused["storeHasSession"] and refused["user"] == "some", refused
    assert not any(s.startswith("signedOut(") for s in refused["states"]), refused
    # A sign-in with it on the Apple device is refused too, and leaves that device's session as it was.
    refused = apple_phone.step("signin-with", provider="google", intent="auto", token=idp.google_token(g))
    assert refused["error"] == "IDENTITY_SUSPENDED" and refused["storeHasSession"] and refused["user"] == "some", refused
    assert apple_phone.step("app-try")["outcomes"] == ["refreshed"]

    assert deliver(server, risc, "account-enabled", g, iat=issued + 1) == "processed"
    back = google_phone.step("signin-with", provider="google", intent="signin", token=idp.google_token(g))
    assert back.get("serviceUserID") == first["serviceUserID"] and back["storeHasSession"], back


def test_the_android_library_maps_identity_suspended_the_same_way(server, idp, risc, classpath, tmp_path):  # noqa: F811
    g = google_sub()
    apple_phone = Phone(server, idp, classpath, tmp_path / "apple")
    google_phone = Phone(server, idp, classpath, tmp_path / "google")
    apple_phone.signed_in()
    assert apple_phone.step("link", "--provider", "google", "--token", idp.google_token(g))["linked"] == "linked"
    signed = google_phone.step("signin", "--provider", "google", "--intent", "SIGN_IN", "--token", idp.google_token(g))
    assert signed["isNewUser"] is False and signed["storeExists"], signed

    issued = int(time.time())
    assert deliver(server, risc, "account-disabled", g, reason="hijacking", iat=issued) == "processed"

    ended = google_phone.step("refresh")
    assert (ended["error"], ended["recommendation"]) == ("SESSION_INVALID", "SIGN_IN_AGAIN"), ended
    assert not ended["storeExists"] and ended["states"][-1] == "SIGNED_OUT(SESSION_ENDED)", ended
    for intent in ("SIGN_IN", "AUTO"):
        refused = google_phone.step("signin", "--provider", "google", "--intent", intent, "--token", idp.google_token(g))
        assert (refused["error"], refused["status"], refused["recommendation"], refused["notice"]) == (
            "IDENTITY_SUSPENDED", 403, "TELL_USER", "IDENTITY_SUSPENDED"), refused
        assert not refused["storeExists"] and refused["user"] == "none", refused
    refused = apple_phone.step("link", "--provider", "google", "--token", idp.google_token(g))
    assert (refused["error"], refused["recommendation"], refused["notice"]) == (
        "IDENTITY_SUSPENDED", "TELL_USER", "IDENTITY_SUSPENDED"), refused
    assert refused["storeExists"] and refused["user"] == "some", refused
    assert not any(s.startswith("SIGNED_OUT") for s in refused["states"]), refused
    refused = apple_phone.step("signin", "--provider", "google", "--intent", "AUTO", "--token", idp.google_token(g))
    assert refused["error"] == "IDENTITY_SUSPENDED" and refused["storeExists"] and refused["user"] == "some", refused
    assert apple_phone.step("refresh")["refreshed"] is True

    assert deliver(server, risc, "account-enabled", g, iat=issued + 1) == "processed"
    back = google_phone.step("signin", "--provider", "google", "--intent", "SIGN_IN", "--token", idp.google_token(g))
    assert back["isNewUser"] is False and back["storeExists"] and back["user"] == "some", back

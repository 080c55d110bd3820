"""Function URL events (HTTP payload v2) through the official emulator, for each function: a good
event, a body that is not JSON, a base64 body, a bad base64 body; the answer is
{statusCode, headers, body} with the contract's envelope in the body and the contract's HTTP status.
A direct invoke of the same event still gets the bare envelope."""
import base64
import json
import uuid

import pytest

from service_support import Service, url_event, via_url


@pytest.fixture
def service(moto, idp, tmp_path):
    service = Service(moto, idp, tmp_path)
    yield service
    for emu in service.emulators:
        emu.stop()


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


# ---------------------------------------------------------------- good events, plain and base64

def test_signin_through_a_function_url(service, idp):
    sub = f"apple-{uuid.uuid4()}"
    event = json.dumps({"provider": "apple", "idToken": idp.apple_token(sub), "intent": "signup"})
    status, headers, envelope = via_url(service.fn("auth-signin"), url_event(event))
    assert status == 200 and envelope["success"] is True, envelope
    assert envelope["data"]["isNewUser"] is True
    assert envelope["data"]["credentials"]["accessKeyId"]
    assert headers.get("cache-control") == "no-store"

    again = json.dumps({"provider": "apple", "idToken": idp.apple_token(sub), "intent": "signin"})
    status, _, envelope = via_url(service.fn("auth-signin"), url_event(b64(again), base64_encoded=True))
    assert status == 200 and envelope["success"] is True and envelope["data"]["isNewUser"] is False, envelope


def test_refresh_through_a_function_url(service, idp):
    signed_in = service.signin(provider="google", idToken=idp.google_token(f"google-{uuid.uuid4()}"), intent="signup")
    token = signed_in["data"]["refreshToken"]

    status, _, envelope = via_url(service.fn("auth-refresh"), url_event(json.dumps({"refreshToken": token})))
    assert status == 200 and envelope["success"] is True, envelope
    rotated = envelope["data"]["refreshToken"]
    assert rotated != token

    status, _, envelope = via_url(service.fn("auth-refresh"),
                                  url_event(b64(json.dumps({"refreshToken": rotated, "action": "signout"})), base64_encoded=True))
    assert status == 200 and envelope["data"] == {"signedOut": True}, envelope

    status, _, envelope = via_url(service.fn("auth-refresh"), url_event(json.dumps({"refreshToken": rotated})))
    assert status == 401 and envelope["error"]["code"] == "SESSION_INVALID", envelope


def test_link_through_a_function_url(service, idp):
    signed_in = service.signin(provider="apple", idToken=idp.apple_token(f"apple-{uuid.uuid4()}"), intent="signup")
    token = signed_in["data"]["refreshToken"]
    google = idp.google_token(f"google-{uuid.uuid4()}")

    event = json.dumps({"refreshToken": token, "action": "link", "provider": "google", "idToken": google})
    status, _, envelope = via_url(service.fn("auth-link"), url_event(b64(event), base64_encoded=True))
    assert status == 200 and envelope["data"]["status"] == "linked", envelope

    status, _, envelope = via_url(service.fn("auth-link"), url_event(event))
    assert status == 200 and envelope["data"]["status"] == "already_linked", envelope

    unlink_missing = json.dumps({"refreshToken": token, "action": "unlink", "provider": "google"})
    status, _, envelope = via_url(service.fn("auth-link"), url_event(unlink_missing))
    assert status == 200 and envelope["data"]["status"] == "unlinked", envelope
    status, _, envelope = via_url(service.fn("auth-link"), url_event(unlink_missing))
    assert status == 404 and envelope["error"]["code"] == "PROVIDER_NOT_LINKED", envelope


# ---------------------------------------------------------------- bad bodies, every function

FUNCTIONS = ["auth-signin", "auth-refresh", "auth-link"]
BAD_BODIES = [
    pytest.param("{this is not json", False, id="not-json"),
    pytest.param(b64("{this is not json"), True, id="base64-of-not-json"),
    pytest.param("%%%not base64%%%", True, id="bad-base64"),
    pytest.param("[1, 2, 3]", False, id="json-not-an-object"),
    pytest.param(None, False, id="no-body"),
    pytest.param(json.dumps({"pad": "x" * (64 * 1024)}), False, id="over-64KiB"),
]


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("body,encoded", BAD_BODIES)
def test_bad_body_is_a_400_invalid_request(service, name, body, encoded):
    status, _, envelope = via_url(service.fn(name), url_event(body, encoded))
    assert status == 400, envelope
    assert envelope["success"] is False and envelope["error"]["code"] == "INVALID_REQUEST"
    assert "not base64" not in envelope["error"]["message"] and "this is not json" not in envelope["error"]["message"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_missing_field_through_a_url_is_a_400(service, name):
    status, _, envelope = via_url(service.fn(name), url_event(json.dumps({"unknown": True})))
    assert status == 400 and envelope["error"]["code"] == "INVALID_REQUEST", envelope


@pytest.mark.parametrize("name", FUNCTIONS)
def test_direct_invoke_still_gets_the_bare_envelope(service, name):
    emu = service.fn(name)
    status, raw = emu.invoke_raw(b"{this is not json")
    assert status == 200
    envelope = json.loads(raw)
    assert "statusCode" not in envelope
    assert envelope["success"] is False and envelope["error"]["code"] == "INVALID_REQUEST"

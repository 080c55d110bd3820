"""`authctl google-risc register` (contract v4, the operator's list; issue 25): the real authctl
registers auth-link's Function URL (scripts/serve's front door, in front of the real function)
with the loopback stand-in of Google's RISC management API, which checks the service account's
bearer token as Google does and then pushes a `verification` security event, signed by the
transmitter stand-in, to the registered receiver. PYTEST_DONT_REWRITE."""
import json
import time

import pytest

from authctl_support import operator  # noqa: F401 (fixture)
from conftest import BUILD_DIR, executable
from signin_tools.serve import FunctionURLServer
from signin_tools.standins.google_risc import (EVENT_TYPES, MANAGEMENT_AUDIENCE, RiscManagementAPI, ServiceAccount,
                                               encode_jwt)
from signin_tools.standins.idp import SigningKey


@pytest.fixture
def account():
    return ServiceAccount()


@pytest.fixture
def google(risc, account):
    api = RiscManagementAPI(risc, account).start()
    yield api
    api.stop()


@pytest.fixture
def receiver(moto, idp, risc, tmp_path):
    executable("auth-link")
    srv = FunctionURLServer(BUILD_DIR, lambda name: {**moto.function_env(name), **idp.function_env(), **risc.function_env()},
                            tmp_path / "serve", pool_size=1).start()
    yield srv
    srv.stop()


def auth_link_log(srv) -> str:
    return "\n".join(p.read_text() for p in srv.log_dir.glob("auth-link*"))


def test_register_updates_the_stream_and_the_verification_event_reaches_auth_link(operator, google, receiver, account,
                                                                                   tmp_path):
    key_file = account.write_key_file(tmp_path / "risc-key.json")
    url = receiver.urls()["auth-link"]
    state = f"ticket 77 {int(time.time())}"
    done = operator.ok("google-risc", "register", "--key-file", key_file, "--receiver-url", url, "--state", state,
                       "--endpoint", google.endpoint, "--reason", "ticket 77", "--yes", "--json")
    out = json.loads(done.stdout)
    assert out["registered"] is True and out["state"] == state
    assert sorted(out["eventsDelivered"]) == sorted(v for k, v in EVENT_TYPES.items() if k != "account-purged")
    assert google.stream["delivery"] == {"delivery_method": "https://schemas.openid.net/secevent/risc/delivery-method/push",
                                         "url": url}
    assert [r["status"] for r in google.requests] == [200, 200], google.requests
    assert google.deliveries == [{"url": url, "state": state, "status": 202}], google.deliveries
    assert f'"state":"{state}"' in auth_link_log(receiver), "the verification event's state is not in auth-link's log"
    audits = operator.audits(done)
    assert [(a["action"], a["phase"], a.get("outcome")) for a in audits] == [
        ("google-risc-register", "intent", None),
        ("google-risc-register", "outcome", "done: registered, verification requested")], audits
    assert audits[0]["change"].startswith("register the receiver with Google")
    assert all(a["operator"]["arn"] == operator.identity["arn"] and a["reason"] == "ticket 77" for a in audits)
    assert audits[-1]["serviceAccount"] == account.client_email and audits[-1]["eventsDelivered"] == 7
    secret = json.loads(open(key_file).read())["private_key"]
    assert "PRIVATE KEY" not in done.stdout + done.stderr and secret[40:80] not in done.stderr


def test_a_token_google_would_refuse_registers_nothing(operator, google, receiver, account, tmp_path):
    url = receiver.urls()["auth-link"]
    stranger = ServiceAccount(name="someone-else")
    # Another project's service account, and this account's key id with another key.
    forged = dict(account.key_file(), private_key=stranger.key_file()["private_key"])
    for what, key in {"another service account": stranger.key_file(), "another key under this key id": forged}.items():
        path = tmp_path / "key.json"
        path.write_text(json.dumps(key))
        done = operator.run("google-risc", "register", "--key-file", str(path), "--receiver-url", url,
                            "--endpoint", google.endpoint, "--yes")
        assert done.returncode == 1, f"{what}: exited {done.returncode}"
        assert "HTTP 401" in done.stderr and "nothing registered" in done.stderr, done.stderr[-500:]
        assert google.stream is None and google.deliveries == []
    assert [r["why"] for r in google.requests] == ["kid names no key of the service account",
                                                   "signature does not verify with the service account's key"]


def test_urls_and_key_files_are_checked_before_anything_is_sent(operator, google, account, tmp_path):
    key_file = account.write_key_file(tmp_path / "risc-key.json")
    bad = {
        "plain http receiver": ["--receiver-url", "http://example.com/risc", "--endpoint", google.endpoint],
        "plain http endpoint": ["--receiver-url", "https://abc.lambda-url.us-east-1.on.aws/", "--endpoint",
                                "http://risc.example.com"],
    }
    for what, args in bad.items():
        done = operator.run("google-risc", "register", "--key-file", key_file, *args, "--yes")
        assert done.returncode != 0 and "https" in done.stderr, f"{what}: {done.returncode} {done.stderr[-300:]}"
    not_a_key = tmp_path / "not-a-key.json"
    not_a_key.write_text(json.dumps({"type": "authorized_user", "client_id": "x"}))
    done = operator.run("google-risc", "register", "--key-file", str(not_a_key), "--receiver-url",
                        "https://abc.lambda-url.us-east-1.on.aws/", "--endpoint", google.endpoint, "--yes")
    assert done.returncode != 0 and "service account" in done.stderr
    dry = operator.ok("google-risc", "register", "--key-file", key_file, "--receiver-url",
                      "https://abc.lambda-url.us-east-1.on.aws/", "--endpoint", google.endpoint, "--dry-run")
    assert [(a["phase"], a["outcome"]) for a in operator.audits(dry)] == [("read", "would register and verify")]
    assert google.requests == [], "a refused or dry run reached Google"


def test_the_management_stand_in_checks_the_bearer_as_google_does(google, account):
    """The stand-in refuses what Google refuses (https://developers.google.com/identity/protocols/risc)."""
    now = int(time.time())
    email, kid = account.client_email, account.private_key_id
    key = SigningKey(kid, private_key=account.key)
    good = {"iss": email, "sub": email, "aud": MANAGEMENT_AUDIENCE, "iat": now, "exp": now + 3600}

    def bearer(claims=None, header=None, signer=key):
        return "Bearer " + encode_jwt({"alg": "RS256", "kid": kid, **(header or {})}, {**good, **(claims or {})}, signer)

    assert google.check_bearer(bearer()) is None
    refusals = {
        "aud of another API": bearer({"aud": "https://oauth2.googleapis.com/token"}),
        "iss is not the account": bearer({"iss": "other@example.iam.gserviceaccount.com"}),
        "sub is not the account": bearer({"sub": "user@example.com"}),
        "expired": bearer({"iat": now - 7200, "exp": now - 3600}),
        "lives more than an hour": bearer({"exp": now + 7200}),
        "issued in the future": bearer({"iat": now + 600, "exp": now + 4200}),
        "unknown kid": bearer(header={"kid": "0" * 40}),
        "another key": bearer(signer=SigningKey(kid)),
        "no bearer": None,
    }
    for what, header in refusals.items():
        assert google.check_bearer(header) is not None, f"the stand-in accepted a bearer with {what}"

"""Each purchase's own state and the account's entitlement over all of them (contract v3; issue
18, defects 3 and 5), and the App Store Server API, end to end: the real auth-link under the
official Lambda emulator against moto, transactions and notifications signed by the test PKI
(appstore_pki.py), and the App Store Server API played by a loopback stand-in that checks each
request's ES256 token as Apple does (appstore_api.py).

Refresh tokens are secrets: assertions carry their own messages. PYTEST_DONT_REWRITE."""
import time

import pytest

from service_support import ok
from signin_tools.standins.appstore_api import ACTIVE, REVOKED, AppStoreServerAPI
from signin_tools.standins.appstore_pki import AppStorePKI
from test_purchases import DAY_MS, account, claim, new_purchase_id, notification, notify, transaction


@pytest.fixture(scope="module")
def pki():
    return AppStorePKI()


@pytest.fixture
def api(pki):
    with AppStoreServerAPI(pki) as server:
        yield server


@pytest.fixture
def store(svc, pki):
    return svc.start("auth-link", **pki.function_env())


def subscription(svc, uuid) -> dict:
    return svc.read_json(f"users/{uuid}/account/profile.json")["subscription"]


def state(svc, otid) -> dict:
    return svc.read_json(f"purchases/apple-state/{otid}.json")


def send(store, signed) -> str:
    status, envelope = notify(store, signed)
    assert status == 200, f"HTTP {status} {envelope.get('error')}"
    return envelope["data"]["status"]


def test_a_claim_applies_the_newer_state_the_app_store_server_api_reports(svc, pki, api):
    store = svc.start("auth-link", **pki.function_env(), **api.function_env())
    uuid, data = account(svc)
    otid = new_purchase_id()
    saved = transaction(pki, otid, uuid)  # active when the app saved it
    now = int(time.time() * 1000)
    api.set_status(otid, REVOKED, revocationDate=now - 1000, revocationReason=1)
    answer = ok(claim(store, data, saved))
    assert (answer["status"], answer["subscription"]["status"], answer["subscription"]["tier"]) == \
        ("claimed", "revoked", "free"), "Apple's newer refund was not applied"
    assert state(svc, otid)["status"] == "revoked" and "serviceUserID" not in state(svc, otid)
    assert api.requests == [(otid, None)], f"Apple refused the token: {api.requests}"
    # Apple says active again (REFUND_REVERSED): the next claim brings that back.
    api.set_status(otid, ACTIVE)
    assert ok(claim(store, data, saved))["subscription"]["status"] == "active"
    assert "appStoreAPI=answered" in svc.logs()


def test_apple_unreachable_or_refusing_leaves_the_claim_working(svc, pki, api):
    store = svc.start("auth-link", **pki.function_env(), **api.function_env())
    uuid, data = account(svc)
    api.down(hang=True)
    started = time.monotonic()
    answer = ok(claim(store, data, transaction(pki, new_purchase_id(), uuid)))
    assert answer["subscription"]["status"] == "active" and time.monotonic() - started < 10
    api.up()
    # A key Apple does not know (another issuer's): 401, and the claim still goes on.
    wrong = AppStoreServerAPI(pki)
    env = {**api.function_env(), "APPSTORE_API_PRIVATE_KEY": wrong.private_key_pem()}
    other = svc.start("auth-link", **pki.function_env(), **env)
    answer = ok(claim(other, data, transaction(pki, new_purchase_id(), uuid)))
    assert answer["subscription"]["status"] == "active"
    assert api.requests[-1][1] is not None, "the stand-in accepted a token signed by another key"
    logs = svc.logs()
    assert "appStoreAPI=unavailable" in logs and "appStoreAPI=unauthorized" in logs
    assert "-----BEGIN" not in logs


def test_a_refund_before_the_claim_makes_the_claim_revoked(svc, store, pki):
    """Defect 3: Apple's REFUND for a purchase nobody has claimed yet is kept."""
    uuid, data = account(svc)
    otid = new_purchase_id()
    saved = transaction(pki, otid, uuid)
    now = int(time.time() * 1000)
    assert send(store, notification(pki, otid, "REFUND", signed_ms=now + 5000)) == "unknownPurchase"
    assert state(svc, otid)["status"] == "revoked"
    sub = ok(claim(store, data, saved))["subscription"]
    assert (sub["status"], sub["tier"]) == ("revoked", "free"), "the JWS saved before the refund granted the period"


def test_a_refunded_purchase_claimed_again_after_deletion_is_not_active(svc, store, pki):
    """Defect 3: claim, refund, delete the account, claim the old JWS from a new account."""
    uuid, data = account(svc)
    otid = new_purchase_id()
    saved = transaction(pki, otid, None)  # no appAccountToken: any account may claim it
    ok(claim(store, data, saved))
    now = int(time.time() * 1000)
    assert send(store, notification(pki, otid, "REFUND", signed_ms=now + 5000)) == "processed"
    ok(store.invoke({"refreshToken": data["refreshToken"], "action": "delete"}))
    assert svc.read_object(f"purchases/apple/{otid}") is None
    _, fresh = account(svc)
    sub = ok(claim(store, fresh, saved))["subscription"]
    assert sub["status"] == "revoked" and sub["tier"] == "free", "the old JWS made a refunded purchase active"


def test_an_expiry_of_one_purchase_keeps_the_other_paid_for(svc, store, pki):
    """Defect 5: a lapsing monthly A, then a yearly B; A's EXPIRED and a restore of A keep B."""
    uuid, data = account(svc)
    a, b = sorted([new_purchase_id(), new_purchase_id()])
    now = int(time.time() * 1000)
    lapsing = transaction(pki, a, uuid, expiresDate=now + DAY_MS)
    ok(claim(store, data, lapsing))
    ok(claim(store, data, transaction(pki, b, uuid, expiresDate=now + 365 * DAY_MS)))
    assert send(store, notification(pki, a, "EXPIRED", signed_ms=now + 5000, expires_ms=now + DAY_MS)) == "processed"
    sub = subscription(svc, uuid)
    assert (sub["status"], sub["tier"], sub["originalTransactionId"]) == ("active", "premium", b), \
        "news about one purchase hid the other"
    assert [(p["originalTransactionId"], p["status"]) for p in sub["purchases"]] == [(a, "expired"), (b, "active")]
    again = ok(claim(store, data, lapsing))
    assert (again["status"], again["subscription"]["originalTransactionId"]) == ("already_claimed", b)
    assert subscription(svc, uuid)["status"] == "active"

"""Contract v5, "Notifications": the entitlement follows Apple's billing as Apple documents it
(issue 35, defects 7 and 8, and their class). Through the real auth-link and auth-refresh, with
the test PKI's signed notifications and the template's grants.

- DID_CHANGE_RENEWAL_PREF with subtype UPGRADE moves the purchase to the new product at once
  (Apple: "The upgrade goes into effect immediately"); DOWNGRADE waits for the renewal.
- DID_FAIL_TO_RENEW without a subtype is billing retry with no grace period: nothing is paid past
  `expiresDate`.
- No purchase is `active` past its `expiresDate`, notification or not: every answer judges the
  entitlement against the clock.
"""
import json
import time
import uuid as uuidlib

import pytest

from service_support import apple_sub, ok, url_event, via_url
from signin_tools.standins.appstore_pki import AppStorePKI

DAY_MS = 86_400_000
PLUS = "com.example.photos.plus.monthly"
PREMIUM = AppStorePKI.PRODUCT_ID
PLUS_BYTES, PREMIUM_BYTES = 107374182400, 1099511627776


@pytest.fixture(scope="module")
def pki():
    return AppStorePKI()


@pytest.fixture
def store(svc, pki):
    env = pki.function_env()
    env["APPSTORE_PRODUCTS"] = f"{PLUS}=plus:{PLUS_BYTES},{PREMIUM}=premium:{PREMIUM_BYTES}"
    return svc.start("auth-link", **env)


def purchase_id() -> str:
    return str(2_000_000_000_000_000 + uuidlib.uuid4().int % 10**15)


def notify(store, pki, otid: str, kind: str, subtype: str | None, product: str, expires_ms: int) -> str:
    now = int(time.time() * 1000)
    claims = {"originalTransactionId": otid, "productId": product, "signedDate": now, "expiresDate": expires_ms}
    spec = {"kind": "notification",
            "claims": {"notificationType": kind, "notificationUUID": str(uuidlib.uuid4()), "signedDate": now},
            "transaction": {"kind": "transaction", "claims": claims, "drop": ["appAccountToken"]}}
    if subtype:
        spec["claims"]["subtype"] = subtype
    status, _, envelope = via_url(store, url_event(json.dumps({"signedPayload": pki.sign(spec)})))
    assert status == 200, f"{kind}/{subtype}: HTTP {status} {envelope.get('error')}"
    return envelope["data"]["status"]


def claimed_account(svc, store, pki, product: str, expires_ms: int) -> tuple[str, dict, str]:
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    uuid, otid = data["user"]["serviceUserID"], purchase_id()
    signed = pki.transaction(otid, uuid, productId=product, expiresDate=expires_ms)
    answer = ok(store.invoke({"refreshToken": data["refreshToken"], "action": "claimPurchase",
                              "signedTransaction": signed}))
    assert answer["status"] == "claimed", answer
    return uuid, data, otid


def refreshed_subscription(svc, data) -> dict:
    """What the app is told: the subscription in a refresh answer (and the token rotates)."""
    answer = ok(svc.refresh(refreshToken=data["refreshToken"], action="refresh"))
    data["refreshToken"] = answer["refreshToken"]
    return answer["user"]["subscription"]


def test_an_upgrade_takes_effect_at_once_and_a_downgrade_at_the_renewal(svc, store, pki):
    expires = int(time.time() * 1000) + 20 * DAY_MS
    uuid, data, otid = claimed_account(svc, store, pki, PLUS, expires)
    assert (refreshed_subscription(svc, data)["tier"]) == "plus"
    # Apple signs the new product's transaction into the UPGRADE notification.
    assert notify(store, pki, otid, "DID_CHANGE_RENEWAL_PREF", "UPGRADE", PREMIUM, expires + DAY_MS) == "processed"
    sub = refreshed_subscription(svc, data)
    assert (sub["tier"], sub["productID"], sub["storageLimit"], sub["status"]) == \
        ("premium", PREMIUM, PREMIUM_BYTES, "active"), sub
    # A DOWNGRADE is acknowledged: the premium month was paid for; the renewal brings the change.
    assert notify(store, pki, otid, "DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", PREMIUM, expires + DAY_MS) == "ignored"
    assert refreshed_subscription(svc, data)["tier"] == "premium"
    assert notify(store, pki, otid, "DID_RENEW", None, PLUS, expires + 31 * DAY_MS) == "processed"
    assert refreshed_subscription(svc, data)["tier"] == "plus"


def test_billing_retry_without_grace_pays_nothing_past_the_expiry(svc, store, pki):
    now = int(time.time() * 1000)
    uuid, data, otid = claimed_account(svc, store, pki, PREMIUM, now + 10 * DAY_MS)
    # The renewal failed at the period's end; no grace period: Apple retries billing for up to 60 days.
    assert notify(store, pki, otid, "DID_FAIL_TO_RENEW", None, PREMIUM, now - 1000) == "processed"
    sub = refreshed_subscription(svc, data)
    assert (sub["status"], sub["tier"], sub["storageLimit"]) == ("expired", "free", 209715200), sub
    # The billing retry succeeds: Apple's DID_RENEW (subtype BILLING_RECOVERY) pays again.
    assert notify(store, pki, otid, "DID_RENEW", "BILLING_RECOVERY", PREMIUM, now + 30 * DAY_MS) == "processed"
    assert refreshed_subscription(svc, data)["tier"] == "premium"


def test_no_purchase_stays_active_past_its_expiry_without_any_notification(svc, store, pki):
    expires = int(time.time() * 1000) + 4000
    uuid, data, otid = claimed_account(svc, store, pki, PREMIUM, expires)
    sub = refreshed_subscription(svc, data)
    assert (sub["status"], sub["tier"]) == ("active", "premium"), sub
    time.sleep(max(0.0, (expires - time.time() * 1000) / 1000) + 1.5)  # past the expiry; no EXPIRED arrives
    stored = svc.read_json(f"users/{uuid}/account/profile.json")["subscription"]
    assert stored["status"] == "active"  # profile.json changes only with news ...
    sub = refreshed_subscription(svc, data)  # ... every answer judges it against the clock
    assert (sub["status"], sub["tier"], sub["storageLimit"]) == ("expired", "free", 209715200), sub
    assert [p["status"] for p in sub["purchases"]] == ["expired"]

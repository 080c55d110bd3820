"""Purchases belong to accounts, end to end (docs/API.md, auth-link `claimPurchase` and App Store
notifications; issue 12): the real auth-link under the official Lambda emulator against moto
(versioned, signatures checked), with StoreKit 2 signed transactions and App Store Server
Notifications V2 signed by a test PKI shaped like Apple's (signin_tools/standins/appstore_pki.py,
Python `cryptography`), whose root replaces Apple's through APPSTORE_ROOT_CERTS.

Refresh tokens are secrets: assertions carry their own messages. PYTEST_DONT_REWRITE."""
import json
import random
import time
import uuid as uuidlib

import pytest

from service_support import apple_sub, ok, refused, url_event, via_url
from signin_tools.standins.appstore_pki import AppStorePKI

PRODUCT = AppStorePKI.PRODUCT_ID
STORAGE = 1099511627776
DAY_MS = 86_400_000


@pytest.fixture(scope="module")
def pki():
    return AppStorePKI()


@pytest.fixture
def store(svc, pki):
    """auth-link with purchases on, trusting the test PKI's root."""
    return svc.start("auth-link", **pki.function_env())


def new_purchase_id() -> str:
    return str(2_000_000_000_000_000 + random.randrange(10**15))


def transaction(pki, otid: str, owner: str | None, **claims) -> str:
    return pki.transaction(otid, owner, **claims)


def notification(pki, otid: str, kind: str, subtype: str | None = None, signed_ms: int | None = None,
                 expires_ms: int | None = None, grace_ms: int | None = None, note_id: str | None = None) -> str:
    now = int(time.time() * 1000)
    signed = signed_ms or now
    claims = {"originalTransactionId": otid, "signedDate": signed, "expiresDate": expires_ms or now + 29 * DAY_MS}
    spec = {"kind": "notification",
            "claims": {"notificationType": kind, "notificationUUID": note_id or str(uuidlib.uuid4()), "signedDate": signed},
            "transaction": {"kind": "transaction", "claims": claims, "drop": ["appAccountToken"]}}
    if subtype:
        spec["claims"]["subtype"] = subtype
    if grace_ms:
        spec["renewal"] = {"kind": "renewal", "claims": {"originalTransactionId": otid, "gracePeriodExpiresDate": grace_ms}}
    return pki.sign(spec)


def account(svc):
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    return data["user"]["serviceUserID"], data


def claim(store, data, signed) -> dict:
    return store.invoke({"refreshToken": data["refreshToken"], "action": "claimPurchase", "signedTransaction": signed})


def notify(store, signed) -> tuple[int, dict]:
    status, _, envelope = via_url(store, url_event(json.dumps({"signedPayload": signed})))
    return status, envelope


def subscription_read_with_user_credentials(svc, data) -> dict:
    """What the app reads: its own profile.json, with the credentials it was given."""
    c = data["credentials"]
    s3 = svc.moto.client("s3", c["accessKeyId"], c["secretAccessKey"], c["sessionToken"])
    key = f"users/{data['user']['serviceUserID']}/account/profile.json"
    return json.loads(s3.get_object(Bucket=svc.moto.bucket, Key=key)["Body"].read())["subscription"]


def test_claim_restore_and_another_account(svc, store, pki):
    uuid, data = account(svc)
    otid = new_purchase_id()
    answer = ok(claim(store, data, transaction(pki, otid, uuid)))
    sub = answer["subscription"]
    assert answer["status"] == "claimed", f"status {answer['status']}"
    assert (sub["tier"], sub["status"], sub["productID"], sub["originalTransactionId"], sub["storageLimit"]) == \
        ("premium", "active", PRODUCT, otid, STORAGE), f"subscription {sub}"
    assert svc.read_object(f"purchases/apple/{otid}")["body"].decode() == uuid
    assert subscription_read_with_user_credentials(svc, data)["tier"] == "premium"
    # Restore on the same account (another device): already claimed.
    assert ok(claim(store, data, transaction(pki, otid, uuid)))["status"] == "already_claimed"
    # Restore on another account: refused, and nothing changes.
    other_uuid, other = account(svc)
    before = svc.snapshot()
    refused(claim(store, other, transaction(pki, otid, None)), "PURCHASE_BELONGS_TO_OTHER_ACCOUNT", "restore elsewhere")
    refused(claim(store, other, transaction(pki, new_purchase_id(), uuid)), "PURCHASE_BELONGS_TO_OTHER_ACCOUNT",
            "an appAccountToken naming another account")
    assert svc.snapshot() == before, "a refused claim changed S3"
    assert subscription_read_with_user_credentials(svc, other)["tier"] == "free"


def test_concurrent_claims_of_one_purchase_by_two_accounts_leave_one_owner(svc, store, pki):
    otid = new_purchase_id()
    accounts = [account(svc) for _ in range(2)]
    events = [{"refreshToken": d["refreshToken"], "action": "claimPurchase", "signedTransaction": transaction(pki, otid, None)}
              for _, d in accounts]
    answers = svc.parallel("auth-link", events, **pki.function_env())
    codes = sorted("claimed" if a.get("success") else a["error"]["code"] for a in answers)
    assert codes == ["PURCHASE_BELONGS_TO_OTHER_ACCOUNT", "claimed"], f"outcomes {codes}"
    owner = svc.read_object(f"purchases/apple/{otid}")["body"].decode()
    winner = [u for (u, _), a in zip(accounts, answers) if a.get("success")][0]
    assert owner == winner
    for u, _ in accounts:
        listed = otid in svc.read_json(f"users/{u}/account/providers.json").get("purchases", [])
        assert listed == (u == winner), "the loser kept a listing of the purchase"


def test_refusals_are_invalid_purchase_and_change_nothing(svc, store, pki):
    uuid, data = account(svc)
    before = svc.snapshot()
    bad = {
        "unknown product": pki.sign({"kind": "transaction", "claims": {"productId": "com.example.photos.unknown"}}),
        "another bundle": pki.sign({"kind": "transaction", "claims": {"bundleId": "com.example.other"}}),
        "Xcode environment": pki.sign({"kind": "transaction", "claims": {"environment": "Xcode"}}),
        "another root": pki.sign({"kind": "transaction", "chain": ["other_leaf", "other_intermediate", "other_root"]}),
        "leaf without its OID": pki.sign({"kind": "transaction", "chain": ["leaf_without_oid", "intermediate", "root"]}),
        "a flipped signature": pki.sign({"kind": "transaction", "signature": "flip"}),
        "a DER signature": pki.sign({"kind": "transaction", "signature": "der"}),
        "alg none": pki.sign({"kind": "transaction", "alg": "none"}),
    }
    for what, signed in bad.items():
        refused(claim(store, data, signed), "INVALID_PURCHASE", what)
    refused(claim(svc.fn("auth-link"), data, bad["a DER signature"]), "INVALID_REQUEST", "purchases off")
    assert svc.snapshot() == before, "a refused claim changed S3"


def test_notifications_move_the_subscription_monotonically(svc, store, pki):
    uuid, data = account(svc)
    otid = new_purchase_id()
    ok(claim(store, data, transaction(pki, otid, uuid)))
    now = int(time.time() * 1000)

    def state():
        return svc.read_json(f"users/{uuid}/account/profile.json")["subscription"]

    def send(kind, **kw):
        status, envelope = notify(store, notification(pki, otid, kind, **kw))
        assert status == 200, f"{kind}: HTTP {status} {envelope.get('error')}"
        return envelope["data"]["status"]

    assert send("DID_RENEW", signed_ms=now + 1000, expires_ms=now + 60 * DAY_MS) == "processed"
    assert state()["status"] == "active" and state()["expiryDate"].startswith(time.strftime("%Y", time.gmtime((now + 60 * DAY_MS) / 1000)))
    assert send("DID_FAIL_TO_RENEW", subtype="GRACE_PERIOD", signed_ms=now + 2000, grace_ms=now + 16 * DAY_MS) == "processed"
    assert (state()["status"], state()["tier"]) == ("grace", "premium")
    assert send("EXPIRED", signed_ms=now + 3000) == "processed"
    assert (state()["status"], state()["tier"], state()["storageLimit"]) == ("expired", "free", 209715200)
    # A stale notification (signed before the last one) arriving last changes nothing.
    assert send("DID_RENEW", signed_ms=now + 1500) == "processed"
    assert state()["status"] == "expired", "an older notification overwrote a newer one"
    assert send("REFUND_REVERSED", signed_ms=now + 4000) == "processed"
    assert state()["status"] == "active"
    assert send("REFUND", signed_ms=now + 5000) == "processed"
    assert (state()["status"], state()["tier"]) == ("revoked", "free")
    # Each notification once; an unclaimed purchase changes only its own state (contract v3: the
    # claim applies it later) and an acknowledged type changes nothing.
    note = str(uuidlib.uuid4())
    assert send("DID_RENEW", signed_ms=now + 6000, note_id=note) == "processed"
    assert send("DID_RENEW", signed_ms=now + 7000, note_id=note) == "duplicate"
    assert send("DID_RENEW", signed_ms=now + 8000) == "processed"
    before = svc.snapshot()
    unclaimed = new_purchase_id()
    status, envelope = notify(store, notification(pki, unclaimed, "DID_RENEW"))
    assert (status, envelope["data"]["status"]) == (200, "unknownPurchase")
    status, envelope = notify(store, notification(pki, otid, "PRICE_INCREASE"))
    assert (status, envelope["data"]["status"]) == (200, "ignored")
    after = svc.snapshot()
    assert set(after) - set(before) == {f"purchases/apple-state/{unclaimed}.json"}
    assert {k: v for k, v in after.items() if k in before} == before


def test_a_refund_of_a_product_no_longer_sold_still_ends_the_entitlement(svc, store, pki):
    """Issue 23, defect 4: the catalog governs what a claim may grant, never whether payment ended
    (contract v4). A purchase claimed while its product was sold, refunded after the product left
    APPSTORE_PRODUCTS: on main the refund was "ignored" and the account kept premium."""
    uuid, data = account(svc)
    otid = new_purchase_id()
    ok(claim(store, data, transaction(pki, otid, uuid)))
    now = int(time.time() * 1000)
    delisted = svc.start("auth-link", **{**pki.function_env(), "APPSTORE_PRODUCTS": "com.example.photos.other=premium:5"})
    for kind, expected in (("DID_RENEW", "ignored"), ("REFUND", "processed")):
        status, envelope = notify(delisted, notification(pki, otid, kind, signed_ms=now + 1000))
        assert (status, envelope["data"]["status"]) == (200, expected), f"{kind}: HTTP {status} {envelope.get('data')}"
    sub = svc.read_json(f"users/{uuid}/account/profile.json")["subscription"]
    assert (sub["status"], sub["tier"]) == ("revoked", "free"), f"after the refund: {sub['status']} {sub['tier']}"
    assert svc.read_json(f"purchases/apple-state/{otid}.json")["status"] == "revoked"


def test_app_store_notifications_that_lose_their_writes_are_503_so_apple_retries(svc, store, pki):
    """Issue 23, defect 3: a CONFLICT that bounded retries did not settle answers 503 (Apple
    retries), not 400 (Apple drops the refund for good)."""
    from signin_tools.standins import FaultProxy

    uuid, data = account(svc)
    otid = new_purchase_id()
    ok(claim(store, data, transaction(pki, otid, uuid)))
    writes = lambda method, target: method in ("PUT", "DELETE")  # noqa: E731
    with FaultProxy(svc.moto.port, seed=1, rate=1.0, weights={"conflict": 1}, only=writes) as proxy:
        failing = svc.start("auth-link", **pki.function_env(), AWS_ENDPOINT_URL=proxy.endpoint)
        status, envelope = notify(failing, notification(pki, otid, "REFUND"))
    assert (status, envelope["error"]["code"]) == (503, "CONFLICT"), f"HTTP {status}"
    assert svc.read_json(f"users/{uuid}/account/profile.json")["subscription"]["status"] == "active"


def test_bad_notifications_are_400_and_change_nothing(svc, store, pki):
    before = svc.snapshot()
    for what, signed in {"flipped signature": pki.sign({"kind": "notification", "signature": "flip"}),
                         "another app": pki.sign({"kind": "notification", "claims": {"data": {"appAppleId": 1}}}),
                         "not a JWS": "a.b"}.items():
        status, envelope = notify(store, signed)
        assert status == 400 and envelope["success"] is False, f"{what}: HTTP {status}"
    assert svc.snapshot() == before


def test_deleting_the_account_releases_its_purchases(svc, store, pki):
    uuid, data = account(svc)
    otid = new_purchase_id()
    ok(claim(store, data, transaction(pki, otid, uuid)))
    ok(store.invoke({"refreshToken": data["refreshToken"], "action": "delete"}))
    assert svc.read_object(f"purchases/apple/{otid}") is None, "the claim outlived the account"
    _, fresh = account(svc)
    assert ok(claim(store, fresh, transaction(pki, otid, None)))["status"] == "claimed"

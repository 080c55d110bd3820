"""The App Store's 2025–2026 changes (contract v4, issue 25): RESCIND_CONSENT's `appData`, shapes
and types this code does not know, and Family Sharing's FAMILY_REVOKE, through the real auth-link
against moto, signed by the test PKI (signin_tools/standins/appstore_pki.py) in each shape.
PYTEST_DONT_REWRITE."""
import time
import uuid as uuidlib

from test_purchases import PRODUCT, account, claim, new_purchase_id, notify, pki, store  # noqa: F401 (fixtures)
from service_support import log_records, ok, refused

DAY_MS = 86_400_000


def test_rescind_consent_is_verified_acknowledged_and_audited_and_changes_nothing(svc, store, pki):
    """On main RESCIND_CONSENT was refused (400: "neither data nor summary"), so Apple would retry
    it for days and then drop it."""
    uuid, data = account(svc)
    ok(claim(store, data, pki.transaction(new_purchase_id(), uuid)))
    before = svc.snapshot()
    note = str(uuidlib.uuid4())
    signed = pki.sign({"kind": "notification", "app_data": {},
                       "claims": {"notificationType": "RESCIND_CONSENT", "notificationUUID": note},
                       "app_transaction": {"kind": "app_transaction"}})
    status, envelope = notify(store, signed)
    assert (status, envelope.get("data")) == (200, {"status": "acknowledged"}), f"RESCIND_CONSENT: {status} {envelope}"
    assert svc.snapshot() == before, "RESCIND_CONSENT changed S3"
    audits = [r["audit"] for r in log_records(store.logs(), "audit") if r["audit"]["operation"] == "rescindConsent"]
    assert len(audits) == 1, audits
    assert audits[0]["serviceUserID"] is None and audits[0]["outcome"] == "acknowledged"
    assert audits[0]["details"] == {"notificationUUID": note, "environment": "Production",
                                    "appTransactionId": "704089513299345761"}
    emf = [r for r in log_records(store.logs(), "_aws") if r["Operation"] == "appStoreNotification"]
    assert emf[-1]["ConsentRescinded"] == 1 and emf[-1]["Outcome"] == "success"
    # Its app data is still checked: another app's, or a nested app transaction that does not verify, is 400.
    for what, spec in {
        "another bundle": {"kind": "notification", "app_data": {"bundleId": "com.example.other"},
                           "claims": {"notificationType": "RESCIND_CONSENT"}},
        "a forged app transaction": {"kind": "notification", "app_data": {}, "claims": {"notificationType": "RESCIND_CONSENT"},
                                     "app_transaction": {"kind": "app_transaction", "signature": "flip"}},
        "another root": {"kind": "notification", "app_data": {}, "claims": {"notificationType": "RESCIND_CONSENT"},
                         "chain": ["other_leaf", "other_intermediate", "other_root"]},
    }.items():
        status, envelope = notify(store, pki.sign(spec))
        assert status == 400 and envelope["error"]["code"] == "INVALID_PURCHASE", f"{what}: {status}"
    assert svc.snapshot() == before


def test_types_and_shapes_this_code_does_not_know_are_acknowledged_never_refused(svc, store, pki):
    """On main a notification with neither `data` nor `summary` (EXTERNAL_PURCHASE_TOKEN, any
    future shape) was refused with 400."""
    uuid, data = account(svc)
    otid = new_purchase_id()
    ok(claim(store, data, pki.transaction(otid, uuid)))
    before = svc.snapshot()
    now = int(time.time() * 1000)
    signed = {
        "a type Apple adds later, with a transaction": pki.sign({
            "kind": "notification", "claims": {"notificationType": "SOMETHING_NEW", "subtype": "ALSO_NEW"},
            "transaction": {"kind": "transaction", "claims": {"originalTransactionId": otid, "signedDate": now},
                            "drop": ["appAccountToken"]}}),
        "EXTERNAL_PURCHASE_TOKEN": pki.sign({
            "kind": "notification", "drop": ["data"],
            "claims": {"notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED",
                       "externalPurchaseToken": {"externalPurchaseId": str(uuidlib.uuid4()), "tokenCreationDate": now,
                                                 "appAppleId": pki.APP_APPLE_ID, "bundleId": pki.BUNDLE_ID}}}),
        "a shape with no app block at all": pki.sign({"kind": "notification", "drop": ["data"],
                                                       "claims": {"notificationType": "SOMETHING_NEWER"}}),
        "TEST": pki.sign({"kind": "notification", "claims": {"notificationType": "TEST"}}),
    }
    for what, payload in signed.items():
        status, envelope = notify(store, payload)
        assert (status, (envelope.get("data") or {}).get("status")) == (200, "ignored"), f"{what}: {status} {envelope}"
    assert svc.snapshot() == before, "an acknowledged notification changed S3"
    assert ok(store.invoke({"refreshToken": data["refreshToken"], "action": "claimPurchase",
                            "signedTransaction": pki.transaction(otid, uuid)}))["subscription"]["status"] == "active"


def test_family_revoke_revokes_only_that_family_members_purchase(svc, store, pki):
    """Family Sharing: the purchaser's transaction and each family member's have their own
    originalTransactionId; Apple's REVOKE with revocationType FAMILY_REVOKE names the member's."""
    purchaser_uuid, purchaser = account(svc)
    member_uuid, member = account(svc)
    own, shared = new_purchase_id(), new_purchase_id()
    ok(claim(store, purchaser, pki.transaction(own, purchaser_uuid)))
    # The member's own transaction; a token on it is the purchaser's app's, not a claim on the member's access.
    member_tx = pki.transaction(shared, purchaser_uuid, inAppOwnershipType="FAMILY_SHARED")
    assert ok(claim(store, member, member_tx))["subscription"]["status"] == "active"
    now = int(time.time() * 1000)
    revoked_tx = {"kind": "transaction", "drop": ["appAccountToken"],
                  "claims": {"originalTransactionId": shared, "inAppOwnershipType": "FAMILY_SHARED", "signedDate": now,
                             "revocationDate": now, "revocationReason": 0, "revocationType": "FAMILY_REVOKE"}}
    status, envelope = notify(store, pki.sign({"kind": "notification", "transaction": revoked_tx,
                                               "claims": {"notificationType": "REVOKE", "signedDate": now}}))
    assert (status, envelope["data"]["status"]) == (200, "processed"), f"REVOKE: {status} {envelope}"
    member_sub = svc.read_json(f"users/{member_uuid}/account/profile.json")["subscription"]
    purchaser_sub = svc.read_json(f"users/{purchaser_uuid}/account/profile.json")["subscription"]
    assert (member_sub["status"], member_sub["tier"]) == ("revoked", "free"), member_sub
    assert (purchaser_sub["status"], purchaser_sub["tier"]) == ("active", "premium"), purchaser_sub
    assert svc.read_json(f"purchases/apple-state/{shared}.json")["status"] == "revoked"
    assert svc.read_json(f"purchases/apple-state/{own}.json")["status"] == "active"
    # The member's older transaction, presented again, does not bring the access back.
    refused_or_revoked = store.invoke({"refreshToken": member["refreshToken"], "action": "claimPurchase",
                                       "signedTransaction": member_tx})
    assert ok(refused_or_revoked)["subscription"]["status"] == "revoked"

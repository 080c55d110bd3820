import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

/// Contract v3: each purchase's newest state is kept (`purchases/apple-state/`) and a claim
/// applies it (defect 3 of issue 18); an account's entitlement is the best of its purchases
/// (defect 5). These tests use the calls that existed before v3, so they ran on the code before
/// the fix (commit a07d785) and failed there.
@Suite struct PurchaseStateTests {
    static let monthly = "2000000300000001"
    static let yearly = "2000000300000002"
    let premium = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)

    /// A transaction as StoreKit 2 signs it: bought a second before `signed`, running `days`.
    func transaction(
        _ id: String, signed: Int64, days: Int64 = 30, product: String = "com.example.photos.premium"
    )
        -> StorePurchase
    {
        StorePurchase(
            originalTransactionID: id, productID: product, environment: "Production", appAccountToken: nil,
            purchaseDateMs: signed - 1_000, expiresDateMs: signed + days * 86_400_000, revocationDateMs: nil,
            signedDateMs: signed)
    }

    /// The contract's key, spelled out (not `AccountKeys`), so the test reads what the contract names.
    func stateKey(_ id: String) -> String { "purchases/apple-state/\(id).json" }

    func subscription(_ f: AccountFixture, _ uuid: String) -> JSONValue? {
        f.s3.json(AccountKeys.profile(uuid))?["subscription"]
    }

    @Test func aRefundBeforeTheClaimKeepsThePurchaseRevoked() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let saved = transaction(Self.monthly, signed: f.nowMs)
        var refunded = transaction(Self.monthly, signed: f.nowMs + 60_000)
        refunded.revocationDateMs = f.nowMs + 59_000
        let refund = try f.service.purchases.applyStoreNotification(
            "refund-1", subscription: refunded, status: .revoked, expiryMs: refunded.expiresDateMs,
            product: premium, deadline: .none)
        #expect(refund == .unknownPurchase)
        #expect(f.s3.json(stateKey(Self.monthly))?["status"] == "revoked")
        f.nowMs += 120_000
        let out = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: saved, product: premium, deadline: .none)
        #expect(out.status == .claimed)
        let sub = subscription(f, a.account.serviceUserID)
        #expect(sub?["status"] == "revoked" && sub?["tier"] == "free", "the JWS saved before the refund won")
    }

    @Test func aRefundedPurchaseClaimedFromANewAccountAfterDeletionIsNotActive() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let saved = transaction(Self.monthly, signed: f.nowMs)
        _ = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: saved, product: premium, deadline: .none)
        var refunded = transaction(Self.monthly, signed: f.nowMs + 60_000)
        refunded.revocationDateMs = f.nowMs + 59_000
        let refund = try f.service.purchases.applyStoreNotification(
            "refund-2", subscription: refunded, status: .revoked, expiryMs: refunded.expiresDateMs,
            product: premium, deadline: .none)
        #expect(refund == .processed && subscription(f, a.account.serviceUserID)?["status"] == "revoked")
        _ = try f.service.deletion.deleteAccount(
            token: a.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        #expect(f.s3.current(stateKey(Self.monthly)) != nil, "the state left with the account")
        let b = try f.signUp(AccountFixture.google())
        let out = try f.service.purchases.claimPurchase(
            token: b.session.refreshToken.value, purchase: saved, product: premium, deadline: .none)
        #expect(out.status == .claimed)
        let sub = subscription(f, b.account.serviceUserID)
        #expect(sub?["status"] == "revoked" && sub?["tier"] == "free", "the old JWS made the purchase active again")
    }

    @Test func anExpiryOfOnePurchaseKeepsAnotherPaidFor() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let token = a.session.refreshToken.value, uuid = a.account.serviceUserID
        let lapsing = transaction(Self.monthly, signed: f.nowMs, days: 1)
        _ = try f.service.purchases.claimPurchase(token: token, purchase: lapsing, product: premium, deadline: .none)
        f.nowMs += 60_000
        let year = transaction(Self.yearly, signed: f.nowMs, days: 365, product: "com.example.photos.premium.yearly")
        _ = try f.service.purchases.claimPurchase(token: token, purchase: year, product: premium, deadline: .none)
        let expired = try f.service.purchases.applyStoreNotification(
            "expired-1", subscription: transaction(Self.monthly, signed: f.nowMs + 86_400_000, days: 1),
            status: .expired, expiryMs: lapsing.expiresDateMs, product: premium, deadline: .none)
        #expect(expired == .processed)
        let sub = subscription(f, uuid)
        #expect(sub?["status"] == "active" && sub?["tier"] == "premium", "news about A hid B")
        #expect(sub?["originalTransactionId"] == .string(Self.yearly))
        let listed = (sub?["purchases"]?.arrayValue ?? []).map {
            "\($0["originalTransactionId"]?.stringValue ?? "?") \($0["status"]?.stringValue ?? "?")"
        }
        #expect(listed == ["\(Self.monthly) expired", "\(Self.yearly) active"])
    }

    @Test func restoringALapsedPurchaseKeepsTheOneStillPaidFor() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let token = a.session.refreshToken.value, uuid = a.account.serviceUserID
        _ = try f.service.purchases.claimPurchase(
            token: token, purchase: transaction(Self.monthly, signed: f.nowMs, days: 1), product: premium,
            deadline: .none)
        _ = try f.service.purchases.claimPurchase(
            token: token, purchase: transaction(Self.yearly, signed: f.nowMs + 1_000, days: 365), product: premium,
            deadline: .none)
        // Two days later "Restore Purchases" sends A's transaction again, signed now: lapsed.
        f.nowMs += 2 * 86_400_000
        let restored = try f.service.purchases.claimPurchase(
            token: token, purchase: transaction(Self.monthly, signed: f.nowMs - 2 * 86_400_000 + 5_000, days: 1),
            product: premium, deadline: .none)
        #expect(restored.status == .alreadyClaimed)
        let sub = subscription(f, uuid)
        #expect(sub?["status"] == "active" && sub?["originalTransactionId"] == .string(Self.yearly))
    }

    @Test func theStateKeepsOnlyNewerNewsAndAnOlderClaimAppliesIt() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let grace = try f.service.purchases.applyStoreNotification(
            "grace-1", subscription: transaction(Self.monthly, signed: f.nowMs + 5_000), status: .grace,
            expiryMs: f.nowMs + 16 * 86_400_000, product: premium, deadline: .none)
        #expect(grace == .unknownPurchase)
        let stale = try f.service.purchases.applyStoreNotification(
            "expired-2", subscription: transaction(Self.monthly, signed: f.nowMs + 1_000), status: .expired,
            expiryMs: f.nowMs, product: premium, deadline: .none)
        #expect(stale == .unknownPurchase)
        let state = f.s3.json(stateKey(Self.monthly))
        #expect(state?["status"] == "grace" && state?["gracePeriodExpiresDate"] == .int(f.nowMs + 16 * 86_400_000))
        #expect(state?["serviceUserID"] == nil && state?.objectValue?.count == 8)
        _ = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: transaction(Self.monthly, signed: f.nowMs),
            product: premium, deadline: .none)
        let sub = subscription(f, a.account.serviceUserID)
        #expect(sub?["status"] == "grace" && sub?["tier"] == "premium")
        #expect(sub?["expiryDate"] == .string(ISO8601.format(milliseconds: f.nowMs + 16 * 86_400_000)))
    }
}

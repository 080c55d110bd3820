import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

@Suite struct PurchasesTests {
    let product = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)

    func purchase(_ id: String = "2000000100000001", signed: Int64, owner: String? = nil) -> StorePurchase {
        StorePurchase(
            originalTransactionID: id, productID: "com.example.photos.premium", environment: "Production",
            appAccountToken: owner, purchaseDateMs: signed - 1_000, expiresDateMs: signed + 86_400_000,
            revocationDateMs: nil, signedDateMs: signed)
    }

    @Test func aClaimBindsThePurchaseAndARestoreOnAnotherAccountChangesNothing() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let b = try f.signUp(AccountFixture.google())
        let claimed = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product, deadline: .none)
        #expect(claimed.status == .claimed && claimed.account.profile.subscription["tier"] == "premium")
        #expect(f.s3.text(AccountKeys.purchaseClaim("2000000100000001")) == a.account.serviceUserID)
        #expect(f.providers(a.account.serviceUserID)?.purchases == ["2000000100000001"])
        let again = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product, deadline: .none)
        #expect(again.status == .alreadyClaimed)
        let before = f.s3.history.mapValues(\.count)
        #expect(
            accountError {
                _ = try f.service.purchases.claimPurchase(
                    token: b.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product,
                    deadline: .none)
            } == "purchaseBelongsToOtherAccount")
        #expect(
            accountError {
                _ = try f.service.purchases.claimPurchase(
                    token: b.session.refreshToken.value,
                    purchase: purchase("2000000100000002", signed: f.nowMs, owner: a.account.serviceUserID),
                    product: product, deadline: .none)
            } == "purchaseBelongsToOtherAccount")
        #expect(f.s3.history.mapValues(\.count) == before, "a refused claim wrote something")
    }

    @Test func theLoserOfAClaimRaceTakesItsListingBack() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let b = try f.signUp(AccountFixture.google())
        // b's claim file lands between a's listing and a's create-only write.
        f.backend.intercept = { call, s3 in
            if case .s3Put(let put) = call, put.key == AccountKeys.purchaseClaim("2000000100000001") {
                s3.store(put.key, Array(b.account.serviceUserID.utf8), contentType: "text/plain")
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.purchases.claimPurchase(
                    token: a.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product,
                    deadline: .none)
            } == "purchaseBelongsToOtherAccount")
        #expect(f.providers(a.account.serviceUserID)?.purchases == [])
    }

    @Test func theSubscriptionNeverMovesBackInSignedDate() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let uuid = a.account.serviceUserID
        _ = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product, deadline: .none)
        let expired = try f.service.purchases.applyStoreNotification(
            "n1", subscription: purchase(signed: f.nowMs + 2_000), status: .expired, expiryMs: f.nowMs,
            product: product, deadline: .none)
        #expect(expired == .processed)
        let stale = try f.service.purchases.applyStoreNotification(
            "n2", subscription: purchase(signed: f.nowMs + 1_000), status: .active, expiryMs: nil, product: product,
            deadline: .none)
        #expect(stale == .processed)
        let sub = try #require(f.s3.json(AccountKeys.profile(uuid))?["subscription"])
        #expect(sub["status"] == "expired" && sub["tier"] == "free" && sub["storageLimit"] == .int(209_715_200))
        #expect(
            try f.service.purchases.applyStoreNotification(
                "n1", subscription: purchase(signed: f.nowMs + 9_000), status: .active, expiryMs: nil,
                product: product, deadline: .none) == .duplicate)
        #expect(
            try f.service.purchases.applyStoreNotification(
                "n3", subscription: purchase("2000000199999999", signed: f.nowMs), status: .active, expiryMs: nil,
                product: product, deadline: .none) == .unknownPurchase)
    }

    @Test func aDeletedAccountClaimsNothingAndReleasesItsClaims() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        _ = try f.service.purchases.claimPurchase(
            token: a.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product, deadline: .none)
        _ = try f.service.deletion.deleteAccount(
            token: a.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        #expect(f.s3.current(AccountKeys.purchaseClaim("2000000100000001")) == nil)
    }

    /// Found by simulation seed 10306: the claim listed the purchase, the deletion committed and
    /// found no claim file yet, then the claim created it. The claim now takes it back.
    @Test func aClaimRacingTheDeletionLeavesNoClaimFile() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let token = a.session.refreshToken.value
        f.backend.intercept = { call, _ in
            if case .s3Put(let put) = call, put.key == AccountKeys.purchaseClaim("2000000100000001") {
                _ = try? f.service.deletion.deleteAccount(token: token, purgeUntil: .none, deadline: .none)
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.purchases.claimPurchase(
                    token: token, purchase: purchase(signed: f.nowMs), product: product, deadline: .none)
            } == "sessionInvalid")
        #expect(f.s3.current(AccountKeys.purchaseClaim("2000000100000001")) == nil)
    }

    @Test func aClaimLeftByADeletedAccountIsReleasedByTheNextClaim() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let b = try f.signUp(AccountFixture.google())
        _ = try f.service.deletion.deleteAccount(
            token: a.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        // As a claim cut short after its file and before its clean-up would leave it.
        f.s3.store(
            AccountKeys.purchaseClaim("2000000100000001"), Array(a.account.serviceUserID.utf8),
            contentType: "text/plain")
        let out = try f.service.purchases.claimPurchase(
            token: b.session.refreshToken.value, purchase: purchase(signed: f.nowMs), product: product, deadline: .none)
        #expect(out.status == .claimed)
        #expect(f.s3.text(AccountKeys.purchaseClaim("2000000100000001")) == b.account.serviceUserID)
    }

    @Test func theProductTableIsParsedStrictly() throws {
        let catalog = try ProductCatalog.parse("com.example.a=premium:100, com.example.b=family:200")
        #expect(catalog.product("com.example.b") == ProductCatalog.Product(tier: "family", storageLimit: 200))
        for bad in ["", "a=b", "a=:1", "a=t:0", "a=t:x", "a b=t:1", "a=t:1,a=t:2", "a=t t:1"] {
            #expect(throws: ProductCatalog.ParseError.self, "\(bad)") { try ProductCatalog.parse(bad) }
        }
    }
}

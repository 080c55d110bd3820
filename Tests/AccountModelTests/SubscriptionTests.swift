import AccountTestSupport
import StrictJSON
import Testing

/// The entitlement order (`Subscription.isBetter`) must not depend on whether a purchase was just
/// verified (milliseconds) or read back from profile.json (whole seconds in `expiryDate`): two
/// writers merging different purchases would otherwise pick different bests (simulation seed 7031).
@Suite struct SubscriptionTests {
    let premium = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)

    func subscription(_ id: String, expiresMs: Int64, signedMs: Int64) -> Subscription {
        let state = PurchaseState(
            productID: "com.example.photos.premium", environment: "Production", status: .revoked,
            purchaseDateMs: 1_800_000_000_000, expiresDateMs: expiresMs, revocationDateMs: signedMs,
            signedDateMs: signedMs)
        return Subscription(originalTransactionID: id, state: state, product: premium)
    }

    @Test func theOrderIsTheSameForAPurchaseJustVerifiedAndOneReadBack() throws {
        // Expiries 132 ms apart in one second; the other was signed later.
        let a = subscription("2000000000000001", expiresMs: 1_800_000_603_477, signedMs: 1_800_000_003_477)
        let b = subscription("2000000000000002", expiresMs: 1_800_000_603_345, signedMs: 1_800_000_003_345)
        let readBackA = try #require(Subscription(entry: a.entryJSON))
        let readBackB = try #require(Subscription(entry: b.entryJSON))
        #expect(Subscription.isBetter(a, than: b))
        #expect(Subscription.isBetter(readBackA, than: b), "a read back, b just verified")
        #expect(Subscription.isBetter(a, than: readBackB), "a just verified, b read back")
        #expect(!Subscription.isBetter(b, than: readBackA) && !Subscription.isBetter(readBackB, than: a))
    }
}

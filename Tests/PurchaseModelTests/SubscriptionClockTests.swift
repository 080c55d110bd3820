import AccountTestSupport
import StrictJSON
import Testing

/// Contract v5 (issue 35, defect 8's class): no purchase is `active` past its `expiresDate`, nor
/// `grace` past its grace period's end, whatever notifications arrived: what is read is judged
/// against the clock.
@Suite struct SubscriptionClockTests {
    static let premium = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)
    static let plus = ProductCatalog.Product(tier: "plus", storageLimit: 107_374_182_400)

    func purchase(
        _ id: String, _ status: Subscription.Status, endsMs: Int64, product: ProductCatalog.Product = premium
    ) -> Subscription {
        Subscription(
            originalTransactionID: id,
            state: PurchaseState(
                productID: "com.example.\(product.tier)", environment: "Production", status: status,
                purchaseDateMs: 1_000, expiresDateMs: endsMs, gracePeriodExpiresDateMs: status == .grace ? endsMs : nil,
                revocationDateMs: nil, signedDateMs: 2_000),
            product: product)
    }

    func stored(_ purchases: [Subscription]) -> JSONValue {
        let best = purchases.dropFirst().reduce(purchases[0]) { Subscription.isBetter($1, than: $0) ? $1 : $0 }
        return best.json(storageUsed: .int(42), purchases: purchases)
    }

    @Test func aPaidPurchasePastItsEndIsReadAsExpired() {
        let now: Int64 = 10_000_000
        // profile.json keeps whole seconds.
        let object = stored([purchase("1", .active, endsMs: now - 1_000)])
        let judged = Subscription.judged(object, nowMs: now)
        #expect(judged["status"]?.stringValue == "expired" && judged["tier"]?.stringValue == "free")
        #expect(judged["storageLimit"]?.int64Value == ProductCatalog.freeStorageLimit)
        #expect(judged["storageUsed"]?.int64Value == 42)
        #expect(Subscription.judged(object, nowMs: now - 2_000) == object)  // before its end: as stored
        let grace = stored([purchase("1", .grace, endsMs: now)])
        #expect(Subscription.judged(grace, nowMs: now)["status"]?.stringValue == "expired")
    }

    @Test func anotherPurchaseStillPaidForBecomesTheBest() {
        let now: Int64 = 10_000_000
        // Premium ended an hour ago without an EXPIRED; plus, in its grace period, runs on: plus is
        // what the account has now (it ranked below premium's `active` as stored).
        let object = stored([
            purchase("1", .active, endsMs: now - 3_600_000),
            purchase("2", .grace, endsMs: now + 9_000, product: Self.plus),
        ])
        #expect(object["tier"]?.stringValue == "premium")
        let judged = Subscription.judged(object, nowMs: now)
        #expect(judged["tier"]?.stringValue == "plus" && judged["originalTransactionId"]?.stringValue == "2")
        let statuses = judged["purchases"]?.arrayValue?.compactMap { $0["status"]?.stringValue }
        #expect(statuses == ["expired", "grace"])
    }

    @Test func theFreeTierAndEndedPurchasesAreLeftAsTheyAre() {
        let free = JSONValue.object(
            JSONObject([("tier", .string("free")), ("storageLimit", .int(209_715_200)), ("storageUsed", .int(0))]))
        #expect(Subscription.judged(free, nowMs: .max) == free)
        let revoked = stored([purchase("1", .revoked, endsMs: 5)])
        #expect(Subscription.judged(revoked, nowMs: .max) == revoked)
    }
}

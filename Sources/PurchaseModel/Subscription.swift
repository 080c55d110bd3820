import PlatformSupport
import StrictJSON

/// One purchase an account claimed, as profile.json keeps it, and the account's entitlement over
/// all of them (contract v3, docs/API.md `claimPurchase`): the `subscription` object describes the
/// best of the claimed purchases (`active` before `grace` before `expired`/`revoked`, then the
/// later expiry) and lists every one in `purchases`, each monotonic in its own `signedDate`, so
/// news about one purchase never hides another still paid for. Each write merges one purchase
/// into the list and recomputes the best, so two writers racing (`If-Match`, re-applied on a lost
/// race) never lose each other's purchase.
package struct Subscription: Sendable, Equatable {
    package enum Status: String, Sendable {
        case active, grace, expired, revoked
    }

    package var originalTransactionID: String
    package var productID: String
    package var environment: String
    package var status: Status
    package var startMs: Int64?
    /// When the entitlement ends: the transaction's `expiresDate`, or the grace period's end.
    package var expiryMs: Int64?
    package var signedDateMs: Int64
    /// What the product grants while paid for (an expired or revoked purchase grants the free tier).
    package var product: ProductCatalog.Product

    package init(originalTransactionID: String, state: PurchaseState, product: ProductCatalog.Product) {
        self.originalTransactionID = originalTransactionID
        productID = state.productID
        environment = state.environment
        status = state.status
        startMs = state.purchaseDateMs
        expiryMs = state.entitlementEndMs
        signedDateMs = state.signedDateMs
        self.product = product
    }

    package var isPaid: Bool { status == .active || status == .grace }
    package var grant: ProductCatalog.Product { isPaid ? product : ProductCatalog.free }

    /// The order of entitlement: paid before unpaid, `active` before `grace`, then the later
    /// expiry (none: does not expire), then the later signature and the smaller id (a total order,
    /// so every writer picks the same best). The expiry is compared in whole seconds, the precision
    /// an entry's `expiryDate` keeps: a purchase just verified (milliseconds) and one read back from
    /// profile.json must order the same way, or two writers could pick different bests (simulation
    /// seed 7031: two expiries 132 ms apart in one second).
    package static func isBetter(_ a: Subscription, than b: Subscription) -> Bool {
        func rank(_ s: Status) -> Int { s == .active ? 2 : s == .grace ? 1 : 0 }
        func second(_ ms: Int64?) -> Int64 { ms.map { $0 >= 0 ? $0 / 1000 : ($0 - 999) / 1000 } ?? .max }
        if rank(a.status) != rank(b.status) { return rank(a.status) > rank(b.status) }
        let ae = second(a.expiryMs), be = second(b.expiryMs)
        if ae != be { return ae > be }
        if a.signedDateMs != b.signedDateMs { return a.signedDateMs > b.signedDateMs }
        return a.originalTransactionID < b.originalTransactionID
    }

    /// The best of `list` by `isBetter`, the one a subscription object names; nil for none.
    package static func best(of list: [Subscription]) -> Subscription? {
        guard let first = list.first else { return nil }
        return list.dropFirst().reduce(first) { isBetter($1, than: $0) ? $1 : $0 }
    }

    /// One entry of `subscription.purchases`.
    package var entryJSON: JSONValue {
        func ts(_ ms: Int64?) -> JSONValue { ms.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null }
        return .object(
            JSONObject([
                ("originalTransactionId", .string(originalTransactionID)), ("productID", .string(productID)),
                ("environment", .string(environment)), ("status", .string(status.rawValue)),
                ("tier", .string(product.tier)), ("storageLimit", .int(product.storageLimit)),
                ("startDate", ts(startMs)), ("expiryDate", ts(expiryMs)),
                // Milliseconds kept: two notifications signed in the same second still order.
                ("signedDate", .string(ISO8601.format(milliseconds: signedDateMs, fractional: true))),
            ]))
    }

    /// An entry, or (for a profile written before v3, without `purchases`) the subscription object
    /// itself when it names a purchase.
    package init?(entry: JSONValue) {
        guard let o = entry.objectValue, let id = o["originalTransactionId"]?.stringValue,
            let product = o["productID"]?.stringValue, let status = o["status"]?.stringValue.flatMap(Status.init),
            let signed = o["signedDate"]?.stringValue.flatMap(ISO8601.parse), let tier = o["tier"]?.stringValue,
            let limit = o["storageLimit"]?.int64Value
        else { return nil }
        originalTransactionID = id
        productID = product
        environment = o["environment"]?.stringValue ?? ""
        self.status = status
        startMs = o["startDate"]?.stringValue.flatMap(ISO8601.parse)
        expiryMs = o["expiryDate"]?.stringValue.flatMap(ISO8601.parse)
        signedDateMs = signed
        self.product = ProductCatalog.Product(tier: tier, storageLimit: limit)
    }

    /// The purchases `subscription` lists (a pre-v3 subscription counts as its one purchase).
    package static func claimed(in subscription: JSONValue) -> [Subscription] {
        if let list = subscription["purchases"]?.arrayValue { return list.compactMap(Subscription.init(entry:)) }
        return Subscription(entry: subscription).map { [$0] } ?? []
    }

    /// The stored object: the contract's fields for this (the best) purchase, and every purchase.
    package func json(storageUsed: JSONValue?, purchases: [Subscription]) -> JSONValue {
        var object = entryJSON.objectValue ?? JSONObject()
        object["tier"] = .string(grant.tier)
        object["storageLimit"] = .int(grant.storageLimit)
        object["storageUsed"] = storageUsed ?? .int(0)
        object["purchases"] = .array(purchases.map(\.entryJSON))
        return .object(object)
    }
}

import PlatformSupport
import StrictJSON

/// The `subscription` object of profile.json (docs/API.md, `claimPurchase`): what the account is
/// entitled to, from the newest signed App Store data (monotonic in `signedDate`).
public struct Subscription: Sendable, Equatable {
    public enum Status: String, Sendable {
        case active, grace, expired, revoked
    }

    var purchase: StorePurchase
    var status: Status
    /// When the entitlement ends: the transaction's `expiresDate`, or the grace period's end.
    var expiryMs: Int64?
    var product: ProductCatalog.Product

    /// From a verified purchase: revoked when Apple revoked it, expired when its period ended,
    /// otherwise active. Expired and revoked purchases grant the free tier.
    init(purchase: StorePurchase, product: ProductCatalog.Product, nowMs: Int64) {
        let status: Status
        if purchase.revocationDateMs != nil {
            status = .revoked
        } else if let expiry = purchase.expiresDateMs, expiry <= nowMs {
            status = .expired
        } else {
            status = .active
        }
        self.init(purchase: purchase, status: status, expiryMs: purchase.expiresDateMs, product: product)
    }

    init(purchase: StorePurchase, status: Status, expiryMs: Int64?, product: ProductCatalog.Product) {
        self.purchase = purchase
        self.status = status
        self.expiryMs = expiryMs
        self.product = status == .active || status == .grace ? product : ProductCatalog.free
    }

    /// The stored object; `storageUsed` is kept from what was there.
    func json(storageUsed: JSONValue?) -> JSONValue {
        func ts(_ ms: Int64?) -> JSONValue { ms.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null }
        return .object(
            JSONObject([
                ("tier", .string(product.tier)), ("productID", .string(purchase.productID)),
                ("originalTransactionId", .string(purchase.originalTransactionID)),
                ("environment", .string(purchase.environment)), ("status", .string(status.rawValue)),
                ("startDate", ts(purchase.purchaseDateMs)), ("expiryDate", ts(expiryMs)),
                ("storageLimit", .int(product.storageLimit)), ("storageUsed", storageUsed ?? .int(0)),
                // Milliseconds kept: two notifications signed in the same second still order.
                ("signedDate", .string(ISO8601.format(milliseconds: purchase.signedDateMs, fractional: true))),
            ]))
    }

    /// Writes this subscription into `profile` unless what is there was signed at the same time
    /// or later (an older transaction or notification never overwrites a newer one).
    func apply(to profile: inout Profile) -> Bool {
        let current = profile.subscription
        if let stored = current["signedDate"]?.stringValue.flatMap(ISO8601.parse), stored >= purchase.signedDateMs {
            return false
        }
        profile.subscription = json(storageUsed: current["storageUsed"])
        return true
    }
}

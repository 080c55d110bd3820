import StrictJSON

/// The newest verified state of one App Store purchase (contract v3), as kept in
/// `purchases/apple-state/{originalTransactionId}.json`: what Apple last signed about it, from a
/// claimed transaction, a notification or the App Store Server API. No account id, no personal
/// data; it outlives the account that claimed the purchase, so a transaction signed before a
/// refund the service has seen can never bring the purchase back.
package struct PurchaseState: Sendable, Equatable {
    package var productID: String
    package var environment: String
    package var status: Subscription.Status
    /// When the purchase (or its current period) began; the subscription's `startDate`.
    package var purchaseDateMs: Int64?
    package var expiresDateMs: Int64?
    package var gracePeriodExpiresDateMs: Int64?
    package var revocationDateMs: Int64?
    /// When Apple signed what this came from: the order of states (newer wins, strictly).
    package var signedDateMs: Int64

    package init(
        productID: String, environment: String, status: Subscription.Status, purchaseDateMs: Int64?,
        expiresDateMs: Int64?, gracePeriodExpiresDateMs: Int64? = nil, revocationDateMs: Int64?, signedDateMs: Int64
    ) {
        self.productID = productID
        self.environment = environment
        self.status = status
        self.purchaseDateMs = purchaseDateMs
        self.expiresDateMs = expiresDateMs
        self.gracePeriodExpiresDateMs = gracePeriodExpiresDateMs
        self.revocationDateMs = revocationDateMs
        self.signedDateMs = signedDateMs
    }

    /// A presented transaction's state: revoked when Apple revoked it, expired when its period
    /// ended by `nowMs`, otherwise active.
    package init(transaction p: StorePurchase, nowMs: Int64) {
        let status: Subscription.Status
        if p.revocationDateMs != nil {
            status = .revoked
        } else if let expiry = p.expiresDateMs, expiry <= nowMs {
            status = .expired
        } else {
            status = .active
        }
        self.init(
            productID: p.productID, environment: p.environment, status: status, purchaseDateMs: p.purchaseDateMs,
            expiresDateMs: p.expiresDateMs, revocationDateMs: p.revocationDateMs, signedDateMs: p.signedDateMs)
    }

    /// Whether this state replaces `other`: signed strictly later (the same `signedDate` keeps
    /// what is there, so a replay or a lost answer's retry changes nothing).
    package func supersedes(_ other: PurchaseState?) -> Bool {
        guard let other else { return true }
        return signedDateMs > other.signedDateMs
    }

    /// The newer of two states (`self` on a tie).
    package func newer(_ other: PurchaseState?) -> PurchaseState {
        guard let other, other.supersedes(self) else { return self }
        return other
    }

    /// When the entitlement ends: the grace period's end while in grace, else the period's end.
    package var entitlementEndMs: Int64? {
        status == .grace ? (gracePeriodExpiresDateMs ?? expiresDateMs) : expiresDateMs
    }

    /// The stored record: Apple's names and milliseconds since the epoch, as in its payloads.
    package var json: JSONValue {
        func ms(_ v: Int64?) -> JSONValue { v.map { .int($0) } ?? .null }
        return .object(
            JSONObject([
                ("productId", .string(productID)), ("environment", .string(environment)),
                ("status", .string(status.rawValue)), ("purchaseDate", ms(purchaseDateMs)),
                ("expiresDate", ms(expiresDateMs)), ("gracePeriodExpiresDate", ms(gracePeriodExpiresDateMs)),
                ("revocationDate", ms(revocationDateMs)), ("signedDate", .int(signedDateMs)),
            ]))
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let product = o["productId"]?.stringValue,
            let environment = o["environment"]?.stringValue,
            let status = o["status"]?.stringValue.flatMap(Subscription.Status.init(rawValue:)),
            let signed = o["signedDate"]?.int64Value
        else { return nil }
        func ms(_ name: String) -> Int64?? {
            guard let v = o[name], !v.isNull else { return .some(nil) }
            return v.int64Value.map { .some($0) }
        }
        guard let purchase = ms("purchaseDate"), let expires = ms("expiresDate"),
            let grace = ms("gracePeriodExpiresDate"), let revocation = ms("revocationDate")
        else { return nil }
        self.init(
            productID: product, environment: environment, status: status, purchaseDateMs: purchase,
            expiresDateMs: expires, gracePeriodExpiresDateMs: grace, revocationDateMs: revocation,
            signedDateMs: signed)
    }
}

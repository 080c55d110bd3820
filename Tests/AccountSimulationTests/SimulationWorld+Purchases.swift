import AccountTestSupport

/// Purchases in the simulation: three App Store purchases that every device may claim (so claims
/// of one purchase by two accounts race, an account owns several, and a deleted account's
/// purchases are claimed again by the next account), and the App Store's notifications about
/// them, each with data signed at a scattered time (so older data often arrives after newer):
/// refunds, expiries, revocations and grace periods before and after claims, claims presenting
/// transactions already refunded or lapsed, and now and then the App Store Server API's answer
/// (signed now) joining a claim.
extension SimulationWorld {
    static let purchaseIDs = ["2000000000000001", "2000000000000002", "2000000000000003"]
    static let product = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)
    static let productID = "com.example.photos.premium"

    func purchaseOperation(actor: Int, session s: HeldSession) {
        let id = scheduler.rng.pick(Self.purchaseIDs)
        let signed = scheduler.clock - Int64(scheduler.rng.below(120_000))
        // Periods of a few minutes to a day: some lapse while the run goes on.
        let period = scheduler.rng.pick([Int64(60_000), 600_000, 86_400_000])
        var purchase = StorePurchase(
            originalTransactionID: id, productID: Self.productID, environment: "Production",
            appAccountToken: scheduler.rng.chance(0.2) ? s.uuid : nil, purchaseDateMs: signed - 1_000,
            expiresDateMs: signed + period, revocationDateMs: nil, signedDateMs: signed)
        if scheduler.rng.chance(0.6) {
            // A transaction StoreKit signed after a refund carries its revocation date.
            if scheduler.rng.chance(0.1) { purchase.revocationDateMs = signed - 500 }
            let apple = scheduler.rng.chance(0.25) ? appleStatus(id) : nil
            _ = run(actor, "claim \(id)", session: s, purchase: id, signedDateMs: signed) {
                service throws(AccountError) in
                try service.purchases.claimPurchase(
                    token: s.held, purchase: purchase, product: Self.product, deadline: .none,
                    appleStatus: { _ in apple }
                ).status.rawValue
            }
        } else {
            let status = scheduler.rng.pick([Subscription.Status.active, .grace, .expired, .revoked])
            if status == .revoked { purchase.revocationDateMs = signed - 500 }
            let expiry = status == .grace ? signed + 16 * 86_400_000 : purchase.expiresDateMs
            // Apple delivers a notification again when it got no 200 (a replay of the same one).
            let note =
                scheduler.rng.chance(0.2) ? "note-\(id)-\(signed / 60_000)" : "note-\(scheduler.rng.below(1_000_000))"
            _ = run(actor, "store \(status.rawValue) \(id)", session: nil, purchase: id, signedDateMs: signed) {
                service throws(AccountError) in
                try service.purchases.applyStoreNotification(
                    note, subscription: purchase, status: status, expiryMs: expiry, product: Self.product,
                    deadline: .none
                ).rawValue
            }
        }
    }

    /// What the App Store Server API would answer for purchase `id`: a state signed now.
    private func appleStatus(_ id: String) -> PurchaseState {
        let now = scheduler.clock
        let status = scheduler.rng.pick([Subscription.Status.active, .expired, .revoked, .grace])
        return PurchaseState(
            productID: Self.productID, environment: "Production", status: status, purchaseDateMs: now - 60_000,
            expiresDateMs: now + 600_000, gracePeriodExpiresDateMs: status == .grace ? now + 900_000 : nil,
            revocationDateMs: status == .revoked ? now - 1_000 : nil, signedDateMs: now)
    }
}

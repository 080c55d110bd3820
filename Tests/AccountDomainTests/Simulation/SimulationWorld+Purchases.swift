@testable import AccountDomain

/// Purchases in the simulation: two App Store purchases that every device may claim (so claims
/// of one purchase by two accounts race), and the App Store's notifications about them, each
/// with data signed at a scattered time (so older data often arrives after newer).
extension SimulationWorld {
    static let purchaseIDs = ["2000000000000001", "2000000000000002"]
    static let product = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)

    func purchaseOperation(actor: Int, session s: HeldSession) {
        let id = scheduler.rng.pick(Self.purchaseIDs)
        let signed = scheduler.clock - Int64(scheduler.rng.below(120_000))
        let purchase = StorePurchase(
            originalTransactionID: id, productID: "com.example.photos.premium", environment: "Production",
            appAccountToken: scheduler.rng.chance(0.2) ? s.uuid : nil, purchaseDateMs: signed - 1_000,
            expiresDateMs: signed + 86_400_000, revocationDateMs: nil, signedDateMs: signed)
        if scheduler.rng.chance(0.6) {
            _ = run(actor, "claim \(id)", session: s, purchase: id, signedDateMs: signed) {
                service throws(AccountError) in
                try service.claimPurchase(token: s.held, purchase: purchase, product: Self.product, deadline: .none)
                    .status.rawValue
            }
        } else {
            let status = scheduler.rng.pick([Subscription.Status.active, .grace, .expired, .revoked])
            // Apple delivers a notification again when it got no 200 (a replay of the same one).
            let note =
                scheduler.rng.chance(0.2) ? "note-\(id)-\(signed / 60_000)" : "note-\(scheduler.rng.below(1_000_000))"
            _ = run(actor, "store \(status.rawValue) \(id)", session: nil, purchase: id, signedDateMs: signed) {
                service throws(AccountError) in
                try service.applyStoreNotification(
                    note, subscription: purchase, status: status, expiryMs: purchase.expiresDateMs,
                    product: Self.product, deadline: .none
                ).rawValue
            }
        }
    }
}

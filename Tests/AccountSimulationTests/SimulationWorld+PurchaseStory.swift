import AccountTestSupport

/// One device that tells the purchase story the random mix reaches only now and then (issue 18,
/// defects 3 and 5), interleaved with every other device by the scheduler: sign in, claim a
/// purchase that lapses soon and one that runs a year, Apple's news about the first (expired,
/// refunded or revoked, signed later; sometimes before the claim), "Restore Purchases" sending the
/// first transaction again, delete the account, sign in again (a new account) and claim the old
/// transaction of the first purchase from it.
extension SimulationWorld {
    func addPurchaseStory(person: Int) {
        var actor = -1
        actor = scheduler.addActor { [unowned self] in
            var mine: [HeldSession] = []
            let identity = SimIdentity.people[person][0]
            let (a, b) = (Self.purchaseIDs[0], Self.purchaseIDs[1])
            let start = scheduler.clock
            let lapsing = transaction(a, signed: start, period: 600_000)
            let yearly = transaction(b, signed: start + 1, period: 365 * 86_400_000)
            let newsFirst = scheduler.rng.chance(0.3)
            if newsFirst { news(actor, about: a, signed: start + 2_000) }
            signIn(actor, identity, intent: .auto, mine: &mine)
            guard let first = mine.last else { return }
            claim(actor, first, lapsing)
            claim(actor, first, yearly)
            if !newsFirst { news(actor, about: a, signed: scheduler.clock) }
            claim(actor, first, lapsing)  // "Restore Purchases"
            _ = run(actor, "delete", session: first) { service throws(AccountError) in
                try service.deletion.deleteAccount(token: first.held, purgeUntil: .none, deadline: .none).purgeComplete
                    ? "complete" : "pending"
            }
            signIn(actor, identity, intent: .auto, mine: &mine)
            guard let second = mine.last, second.uuid != first.uuid else { return }
            claim(actor, second, lapsing)
        }
    }

    private func transaction(_ id: String, signed: Int64, period: Int64) -> StorePurchase {
        StorePurchase(
            originalTransactionID: id, productID: Self.productID, environment: "Production", appAccountToken: nil,
            purchaseDateMs: signed - 1_000, expiresDateMs: signed + period, revocationDateMs: nil, signedDateMs: signed)
    }

    private func claim(_ actor: Int, _ s: HeldSession, _ p: StorePurchase) {
        _ = run(
            actor, "claim \(p.originalTransactionID)", session: s, purchase: p.originalTransactionID,
            signedDateMs: p.signedDateMs
        ) { service throws(AccountError) in
            try service.purchases.claimPurchase(token: s.held, purchase: p, product: Self.product, deadline: .none)
                .status
                .rawValue
        }
    }

    private func news(_ actor: Int, about id: String, signed: Int64) {
        let status = scheduler.rng.pick([Subscription.Status.expired, .revoked])
        var p = transaction(id, signed: signed, period: 600_000)
        if status == .revoked { p.revocationDateMs = signed - 500 }
        _ = run(actor, "store \(status.rawValue) \(id)", session: nil, purchase: id, signedDateMs: signed) {
            service throws(AccountError) in
            try service.purchases.applyStoreNotification(
                "story-\(id)-\(signed)", subscription: p, status: status, expiryMs: p.expiresDateMs,
                product: Self.product, deadline: .none
            ).rawValue
        }
    }
}

import PurchaseModel

extension Subscription {
    /// Merges this purchase's state into `profile`, unless the state there for the same purchase
    /// was signed at the same time or later (older news never overwrites newer), and makes the
    /// subscription the best of all listed purchases; `storageUsed` is kept.
    package func apply(to profile: inout Profile) -> Bool {
        let current = profile.subscription
        var list = Subscription.claimed(in: current)
        if let i = list.firstIndex(where: { $0.originalTransactionID == originalTransactionID }) {
            guard signedDateMs > list[i].signedDateMs else { return false }
            list[i] = self
        } else {
            list.append(self)
        }
        list.sort { $0.originalTransactionID < $1.originalTransactionID }
        guard let best = Subscription.best(of: list) else { return false }  // never: the list holds self
        profile.subscription = best.json(storageUsed: current["storageUsed"], purchases: list)
        return true
    }
}

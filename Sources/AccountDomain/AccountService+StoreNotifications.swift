import AWSClients
import PlatformSupport

/// What an App Store notification did (docs/API.md, "Notifications").
public enum StoreNotificationOutcome: String, Sendable {
    case processed
    /// This notification (its `notificationUUID`) was processed before.
    case duplicate
    /// No account has claimed the purchase (yet): nothing changes; the claim brings its state.
    case unknownPurchase
}

/// App Store Server Notifications V2, applied to the account that claimed the purchase: the
/// subscription in profile.json moves to what the notification says, unless the stored state
/// was signed later (monotonic in `signedDate`). Each notification is processed at most once: a
/// marker per `notificationUUID`, written after the (idempotent) effect, so Apple's retry after
/// a failure applies it and a replay does nothing.
extension AccountService {
    public func applyStoreNotification(
        _ notificationID: String, subscription purchase: StorePurchase, status: Subscription.Status,
        expiryMs: Int64?, product: ProductCatalog.Product, deadline: Deadline
    ) throws(AccountError) -> StoreNotificationOutcome {
        let marker = AccountKeys.notificationMarker("appstore", AccountService.markerName(notificationID))
        guard purchase.hasValidID else { return .unknownPurchase }
        let claimKey = AccountKeys.purchaseClaim(purchase.originalTransactionID)
        var reads = Round()
        let markerSlot = reads.get(marker), claimSlot = reads.get(claimKey)
        let answers = backend.run(reads, deadline: deadline)
        if try answers.value(markerSlot) != nil { return .duplicate }
        guard let uuid = try mapping(answers.value(claimSlot), key: claimKey)?.uuid else { return .unknownPurchase }
        let docs = try readAccount(uuid, deadline: deadline)
        guard let account = try account(uuid: uuid, profile: docs.profile, providers: docs.providers),
            !account.providers.isDeleted
        else { return .unknownPurchase }
        let subscription = Subscription(purchase: purchase, status: status, expiryMs: expiryMs, product: product)
        _ = try updateProfile(account, deadline: deadline) { subscription.apply(to: &$0) }
        try markProcessed(marker, deadline: deadline)
        return .processed
    }
}

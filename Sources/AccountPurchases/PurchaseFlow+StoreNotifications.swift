import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import PurchaseModel

/// What an App Store notification did (docs/API.md, "Notifications").
package enum StoreNotificationOutcome: String, Sendable {
    case processed
    /// This notification (its `notificationUUID`) was processed before.
    case duplicate
    /// No live account has claimed the purchase (yet): its state is kept, and the claim applies it.
    case unknownPurchase
}

/// App Store Server Notifications V2. The purchase's state (`purchases/apple-state/`) takes what
/// the notification says, claimed or not, unless the stored state was signed later; then the
/// account that claimed the purchase merges the newest state into its subscription (monotonic
/// per purchase in `signedDate`; the entitlement is the best of its purchases). The state is
/// written before the claim is read, so a claim racing this notification either is seen here or
/// reads the state after it was stored. Each notification is processed at most once: a marker per
/// `notificationUUID`, written after the (idempotent) effect, so Apple's retry after a failure
/// applies it and a replay does nothing.
extension PurchaseFlow {
    package func applyStoreNotification(
        _ notificationID: String, originalTransactionID id: String, state: PurchaseState,
        product: ProductCatalog.Product, catalog: ProductCatalog = ProductCatalog(), deadline: Deadline
    ) throws(AccountError) -> StoreNotificationOutcome {
        let marker = AccountKeys.notificationMarker("appstore", AccountStore.markerName(notificationID))
        guard StorePurchase.isValidID(id) else { return .unknownPurchase }
        if try store.backend.get(marker, deadline: deadline) != nil { return .duplicate }
        let newest = try recordPurchaseState(id, state, deadline: deadline)
        let claimKey = AccountKeys.purchaseClaim(id)
        guard let uuid = try store.mapping(store.backend.get(claimKey, deadline: deadline), key: claimKey)?.uuid else {
            return .unknownPurchase
        }
        let docs = try store.readAccount(uuid, deadline: deadline)
        guard let account = try store.account(uuid: uuid, profile: docs.profile, providers: docs.providers),
            !account.providers.isDeleted
        else { return .unknownPurchase }
        // Paid-for news of a product the catalog no longer lists grants nothing new: the
        // catalog governs what paid purchases grant, and only the end of payment needs no
        // catalog (contract v4). This happens only when newer paid news was stored earlier.
        let endsPayment = newest.status == .expired || newest.status == .revoked
        guard endsPayment || catalog.products.isEmpty || catalog.product(newest.productID) != nil else {
            try store.markProcessed(marker, deadline: deadline)
            return .processed
        }
        let entry = Subscription(
            originalTransactionID: id, state: newest,
            product: PurchaseFlow.product(of: newest, in: catalog, fallback: product))
        _ = try store.updateProfile(account, deadline: deadline) { entry.apply(to: &$0) }
        try store.markProcessed(marker, deadline: deadline)
        return .processed
    }

    /// The same with the notification's transaction and the status and end of entitlement the
    /// notification's type gives (`expiryMs` is the grace period's end for `.grace`).
    package func applyStoreNotification(
        _ notificationID: String, subscription purchase: StorePurchase, status: Subscription.Status,
        expiryMs: Int64?, product: ProductCatalog.Product, deadline: Deadline
    ) throws(AccountError) -> StoreNotificationOutcome {
        let grace = status == .grace
        let state = PurchaseState(
            productID: purchase.productID, environment: purchase.environment, status: status,
            purchaseDateMs: purchase.purchaseDateMs, expiresDateMs: grace ? purchase.expiresDateMs : expiryMs,
            gracePeriodExpiresDateMs: grace ? expiryMs : nil, revocationDateMs: purchase.revocationDateMs,
            signedDateMs: purchase.signedDateMs)
        return try applyStoreNotification(
            notificationID, originalTransactionID: purchase.originalTransactionID, state: state, product: product,
            deadline: deadline)
    }
}

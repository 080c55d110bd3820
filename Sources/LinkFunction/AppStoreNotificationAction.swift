import AccountEvents
import AccountLinks
import AccountModel
import AccountPurchases
import AccountStore
import AppStoreSignedData
import AuthService
import PlatformSupport
import PurchaseModel

/// App Store Server Notifications V2: `{"signedPayload": "<JWS>"}` posted by Apple to auth-link's
/// Function URL (docs/API.md, "Notifications"). The notification and its nested transaction and
/// renewal info are verified like a signed transaction; the subscription of the account that
/// claimed the purchase moves as the type says; `REVOKE` with `revocationType` `FAMILY_REVOKE`
/// names the family member's own transaction, so only that purchase is revoked; an UPGRADE of the
/// renewal preference moves the purchase to the new product at once, a billing retry without grace
/// (`DID_FAIL_TO_RENEW` with no subtype) pays until `expiresDate` (contract v5). Answers 200 when
/// processed, a duplicate, about an unclaimed purchase, of a type or shape that changes nothing
/// (`RESCIND_CONSENT`, which carries `appData`, is audited), 400 when verification fails (Apple
/// does not retry); 503 on a transient failure (Apple retries).
package struct AppStoreNotificationAction: Action {
    package static let name = "appStoreNotification"

    package let signedPayload: String

    package static func matches(_ invocation: Invocation) -> Bool {
        invocation.shape == .functionURL && invocation.request.object["signedPayload"]?.stringValue != nil
    }

    package init(_ request: Request) throws(ServiceError) {
        signedPayload = try request.requiredString("signedPayload", maxBytes: Invocation.maxEventBytes)
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        guard let verifier = d.storeVerifier, let products = d.configuration.purchases?.products else {
            throw ServiceError(.invalidRequest, "App Store notifications are not enabled in this deployment.")
        }
        let notification = try verifier.verifyNotification(signedPayload)
        // A parent withdrew consent for a minor (iOS 26 age assurance): the operator is told, and
        // nothing else changes (what consent means is the app's decision).
        if notification.notificationType == "RESCIND_CONSENT" { return .consentRescinded(notification) }
        guard let transaction = notification.data?.transaction,
            let change = Self.change(notification, transaction),
            let product = Self.product(transaction.productId, change.status, in: products)
        else { return .event(status: "ignored") }
        let state = PurchaseState(
            productID: transaction.productId, environment: transaction.environment.rawValue, status: change.status,
            purchaseDateMs: transaction.purchaseDate, expiresDateMs: transaction.expiresDate,
            gracePeriodExpiresDateMs: change.status == .grace ? change.expiryMs : nil,
            revocationDateMs: transaction.revocationDate, signedDateMs: notification.signedDate)
        let outcome = try d.purchases.applyStoreNotification(
            notification.notificationUUID, originalTransactionID: transaction.originalTransactionId, state: state,
            product: product, catalog: products, deadline: deadline)
        return .event(status: outcome.rawValue)
    }

    /// The contract's mapping of notification types to the subscription's status; nil for the
    /// types that are only acknowledged.
    package static func change(
        _ n: AppStoreNotification, _ t: AppStoreTransaction
    ) -> (status: Subscription.Status, expiryMs: Int64?)? {
        switch n.notificationType {
        case "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED", "RENEWAL_EXTENDED", "REFUND_REVERSED":
            return (.active, t.expiresDate)
        case "DID_FAIL_TO_RENEW" where n.subtype == "GRACE_PERIOD":
            return (.grace, n.data?.renewalInfo?.gracePeriodExpiresDate ?? t.expiresDate)
        case "DID_FAIL_TO_RENEW":
            // Billing retry without a grace period (v5): paid until `expiresDate`, then nothing
            // (answers judge the entitlement against the clock: Subscription.asOf).
            let paid = t.expiresDate.map { $0 > n.signedDate } ?? false
            return (paid ? .active : .expired, t.expiresDate)
        case "DID_CHANGE_RENEWAL_PREF" where n.subtype == "UPGRADE":
            // Apple: "The upgrade goes into effect immediately": the transaction is the new
            // product's. A DOWNGRADE takes effect at the next renewal (its DID_RENEW).
            return (.active, t.expiresDate)
        case "EXPIRED", "GRACE_PERIOD_EXPIRED": return (.expired, t.expiresDate)
        case "REFUND", "REVOKE": return (.revoked, t.expiresDate)
        default: return nil
        }
    }

    /// What the purchase's product grants: the catalog decides what a claim may grant, never
    /// whether payment ended (contract v4): an outcome that ends payment (`expired`, `revoked`)
    /// applies to a product the catalog no longer lists (with the free tier, which is what an
    /// ended purchase grants anyway); news that a purchase is paid for (`active`, `grace`) of such
    /// a product grants nothing and is acknowledged.
    package static func product(
        _ id: String, _ status: Subscription.Status, in catalog: ProductCatalog
    ) -> ProductCatalog.Product? {
        if let listed = catalog.product(id) { return listed }
        return status == .expired || status == .revoked ? ProductCatalog.free : nil
    }

    package func httpStatus(for error: ServiceError) -> Int { Self.notificationStatus(for: error) }
}

/// A verified signed transaction (Apple's JWSTransactionDecodedPayload): StoreKit 2's
/// `jwsRepresentation`, or a notification's `signedTransactionInfo`. Dates are milliseconds since
/// the epoch, as Apple writes them. Members Apple marks optional and this service does not need
/// are left out; unknown members are ignored.
package struct AppStoreTransaction: Sendable, Equatable {
    package let originalTransactionId: String
    package let transactionId: String
    package let webOrderLineItemId: String?
    package let bundleId: String
    package let productId: String
    package let subscriptionGroupIdentifier: String?
    package let purchaseDate: Int64
    package let originalPurchaseDate: Int64?
    /// For a subscription: when this period ends.
    package let expiresDate: Int64?
    package let quantity: Int?
    /// "Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription".
    package let type: String?
    /// The UUID the app set at purchase (lowercase), if it set one.
    package let appAccountToken: String?
    package let inAppOwnershipType: String?
    package let signedDate: Int64
    /// Set when Apple refunded or revoked the transaction: 0 (other reason) or 1 (an app issue).
    package let revocationReason: Int?
    package let revocationDate: Int64?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE` (API 1.19 / Notifications 2.20): the
    /// last says this family member lost access through Family Sharing (the purchaser's own
    /// transaction, another `originalTransactionId`, is untouched).
    package let revocationType: String?
    /// For `REFUND_PRORATED`: the refunded share, in thousandths of a percent.
    package let revocationPercentage: Int64?
    package let isUpgraded: Bool?
    package let offerType: Int?
    package let offerIdentifier: String?
    package let environment: AppStoreEnvironment
    package let storefront: String?
    package let transactionReason: String?
    package let currency: String?
    /// In milliunits of `currency`.
    package let price: Int64?

    /// Whether Apple has refunded or revoked it.
    package var isRevoked: Bool { revocationDate != nil }

    /// Whether it is a family member's access to another's purchase (Family Sharing).
    package var isFamilyShared: Bool { inAppOwnershipType == "FAMILY_SHARED" }

    package init(_ p: PayloadReader) throws(AppStoreSignedDataError) {
        originalTransactionId = try p.string("originalTransactionId")
        transactionId = try p.string("transactionId")
        webOrderLineItemId = try p.optionalString("webOrderLineItemId")
        bundleId = try p.string("bundleId")
        productId = try p.string("productId")
        subscriptionGroupIdentifier = try p.optionalString("subscriptionGroupIdentifier")
        purchaseDate = try p.date("purchaseDate")
        originalPurchaseDate = try p.optionalDate("originalPurchaseDate")
        expiresDate = try p.optionalDate("expiresDate")
        quantity = try p.optionalInt("quantity")
        type = try p.optionalString("type")
        appAccountToken = try p.optionalUUID("appAccountToken")
        inAppOwnershipType = try p.optionalString("inAppOwnershipType")
        signedDate = try p.date("signedDate")
        revocationReason = try p.optionalInt("revocationReason")
        revocationDate = try p.optionalDate("revocationDate")
        revocationType = try p.optionalString("revocationType")
        revocationPercentage = try p.optionalInt64("revocationPercentage")
        isUpgraded = try p.optionalBool("isUpgraded")
        offerType = try p.optionalInt("offerType")
        offerIdentifier = try p.optionalString("offerIdentifier")
        environment = try p.environment()
        storefront = try p.optionalString("storefront")
        transactionReason = try p.optionalString("transactionReason")
        currency = try p.optionalString("currency")
        price = try p.optionalInt64("price")
    }
}

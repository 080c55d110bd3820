/// Verified subscription renewal information (Apple's JWSRenewalInfoDecodedPayload), from a
/// notification's `signedRenewalInfo`. Dates are milliseconds since the epoch. It names no
/// bundle id: Apple's verifier checks only its environment, and so does this one.
package struct AppStoreRenewalInfo: Sendable, Equatable {
    package let originalTransactionId: String
    package let autoRenewProductId: String?
    package let productId: String?
    /// 1 when the subscription renews automatically, 0 when the user turned that off.
    package let autoRenewStatus: Int?
    package let isInBillingRetryPeriod: Bool?
    package let expirationIntent: Int?
    /// Until when the user keeps access while Apple retries billing.
    package let gracePeriodExpiresDate: Int64?
    package let priceIncreaseStatus: Int?
    package let offerType: Int?
    package let offerIdentifier: String?
    package let signedDate: Int64
    package let environment: AppStoreEnvironment
    package let recentSubscriptionStartDate: Int64?
    package let renewalDate: Int64?
    package let appAccountToken: String?
    package let currency: String?
    package let renewalPrice: Int64?

    package init(_ p: PayloadReader) throws(AppStoreSignedDataError) {
        originalTransactionId = try p.string("originalTransactionId")
        autoRenewProductId = try p.optionalString("autoRenewProductId")
        productId = try p.optionalString("productId")
        autoRenewStatus = try p.optionalInt("autoRenewStatus")
        isInBillingRetryPeriod = try p.optionalBool("isInBillingRetryPeriod")
        expirationIntent = try p.optionalInt("expirationIntent")
        gracePeriodExpiresDate = try p.optionalDate("gracePeriodExpiresDate")
        priceIncreaseStatus = try p.optionalInt("priceIncreaseStatus")
        offerType = try p.optionalInt("offerType")
        offerIdentifier = try p.optionalString("offerIdentifier")
        signedDate = try p.date("signedDate")
        environment = try p.environment()
        recentSubscriptionStartDate = try p.optionalDate("recentSubscriptionStartDate")
        renewalDate = try p.optionalDate("renewalDate")
        appAccountToken = try p.optionalUUID("appAccountToken")
        currency = try p.optionalString("currency")
        renewalPrice = try p.optionalInt64("renewalPrice")
    }
}

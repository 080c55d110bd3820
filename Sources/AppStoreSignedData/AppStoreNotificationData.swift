/// A notification's `data`, with its nested JWSs verified and decoded.
package struct AppStoreNotificationData: Sendable, Equatable {
    package let appAppleId: Int64?
    package let bundleId: String
    package let bundleVersion: String?
    package let environment: AppStoreEnvironment
    /// From `signedTransactionInfo`, verified as a signed transaction.
    package let transaction: AppStoreTransaction?
    /// From `signedRenewalInfo`, verified as signed renewal info.
    package let renewalInfo: AppStoreRenewalInfo?
    /// The subscription's status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    package let status: Int?
}

/// A notification's `data`, with its nested JWSs verified and decoded.
public struct AppStoreNotificationData: Sendable, Equatable {
    package let appAppleId: Int64?
    package let bundleId: String
    package let bundleVersion: String?
    public let environment: AppStoreEnvironment
    /// From `signedTransactionInfo`, verified as a signed transaction.
    public let transaction: AppStoreTransaction?
    /// From `signedRenewalInfo`, verified as signed renewal info.
    public let renewalInfo: AppStoreRenewalInfo?
    /// The subscription's status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public let status: Int?
}

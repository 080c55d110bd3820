/// One item of Get All Subscription Statuses' answer (`data[].lastTransactions[]`): the latest
/// signed transaction and renewal info of one subscription, still to be verified by the caller
/// exactly as a signed transaction is (nothing here is trusted before that).
public struct AppStoreSubscriptionStatus: Sendable, Equatable {
    /// Apple's status code: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public var status: Int?
    public var originalTransactionId: String?
    public var signedTransactionInfo: String
    public var signedRenewalInfo: String?

    public init(status: Int?, originalTransactionId: String?, signedTransactionInfo: String, signedRenewalInfo: String?)
    {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

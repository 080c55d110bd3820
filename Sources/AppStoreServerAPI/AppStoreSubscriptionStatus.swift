/// One item of Get All Subscription Statuses' answer (`data[].lastTransactions[]`): the latest
/// signed transaction and renewal info of one subscription, still to be verified by the caller
/// exactly as a signed transaction is (nothing here is trusted before that).
package struct AppStoreSubscriptionStatus: Sendable, Equatable {
    /// Apple's status code: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    package var status: Int?
    package var originalTransactionId: String?
    package var signedTransactionInfo: String
    package var signedRenewalInfo: String?

    package init(
        status: Int?, originalTransactionId: String?, signedTransactionInfo: String, signedRenewalInfo: String?
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

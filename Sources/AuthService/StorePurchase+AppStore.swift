import AccountDomain
import AppStoreSignedData

extension StorePurchase {
    /// A verified App Store transaction as the account sees it; `signedDateMs` is when Apple
    /// signed what carried it (the transaction, or the notification).
    init(_ t: AppStoreTransaction, signedDateMs: Int64? = nil) {
        self.init(
            originalTransactionID: t.originalTransactionId, productID: t.productId, environment: t.environment.rawValue,
            appAccountToken: t.appAccountToken, purchaseDateMs: t.purchaseDate, expiresDateMs: t.expiresDate,
            revocationDateMs: t.revocationDate, signedDateMs: signedDateMs ?? t.signedDate)
    }
}

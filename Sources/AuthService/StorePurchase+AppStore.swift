import AccountStore
import AppStoreSignedData
import PurchaseModel

extension StorePurchase {
    /// A verified App Store transaction as the account sees it; `signedDateMs` is when Apple
    /// signed what carried it (the transaction, or the notification). A family member's
    /// transaction (`FAMILY_SHARED`, its own `originalTransactionId`) is theirs to claim: an
    /// `appAccountToken` on it was set by the purchaser's app for the purchaser's account, so it
    /// never decides which account the family member's access belongs to.
    package init(_ t: AppStoreTransaction, signedDateMs: Int64? = nil) {
        self.init(
            originalTransactionID: t.originalTransactionId, productID: t.productId, environment: t.environment.rawValue,
            appAccountToken: t.isFamilyShared ? nil : t.appAccountToken, purchaseDateMs: t.purchaseDate,
            expiresDateMs: t.expiresDate,
            revocationDateMs: t.revocationDate, signedDateMs: signedDateMs ?? t.signedDate)
    }
}

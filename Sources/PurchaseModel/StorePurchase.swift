import PlatformSupport

/// An App Store purchase as the account cares about it: what the caller verified (AuthService
/// checks the signature, chain, bundle, environment and product before the account sees it).
package struct StorePurchase: Sendable, Equatable {
    package var originalTransactionID: String
    package var productID: String
    package var environment: String
    /// The app's `appAccountToken`, lowercase; when present it must be the account's UUID.
    package var appAccountToken: String?
    package var purchaseDateMs: Int64
    package var expiresDateMs: Int64?
    package var revocationDateMs: Int64?
    /// When Apple signed what this came from (the transaction, or the notification carrying it).
    package var signedDateMs: Int64

    package init(
        originalTransactionID: String, productID: String, environment: String, appAccountToken: String?,
        purchaseDateMs: Int64, expiresDateMs: Int64?, revocationDateMs: Int64?, signedDateMs: Int64
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.environment = environment
        self.appAccountToken = appAccountToken
        self.purchaseDateMs = purchaseDateMs
        self.expiresDateMs = expiresDateMs
        self.revocationDateMs = revocationDateMs
        self.signedDateMs = signedDateMs
    }

    /// `originalTransactionId` names an S3 key (`purchases/apple/<id>`): Apple's are decimal digits.
    package var hasValidID: Bool { StorePurchase.isValidID(originalTransactionID) }

    package static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy(ASCII.isDigit)
    }
}

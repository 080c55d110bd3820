/// A verified signed app transaction (Apple's JWSAppTransactionDecodedPayload: StoreKit's
/// `AppTransaction`, or a notification's `appData.signedAppTransactionInfo`): the customer's
/// download of the app. Dates are milliseconds since the epoch; members this service does not
/// need are left out, unknown ones ignored.
package struct AppStoreAppTransaction: Sendable, Equatable {
    /// `receiptType`: the environment that signed it.
    package let environment: AppStoreEnvironment
    package let bundleId: String
    package let appAppleId: Int64?
    /// One per Apple Account (and per family member) that downloaded the app; the same across
    /// devices, redownloads and refunds.
    package let appTransactionId: String?
    package let originalPlatform: String?
    /// When the App Store made it: the time Apple's library verifies its chain at.
    package let receiptCreationDate: Int64

    package init(_ p: PayloadReader) throws(AppStoreSignedDataError) {
        environment = try p.environment("receiptType")
        bundleId = try p.string("bundleId")
        appAppleId = try p.optionalInt64("appAppleId")
        appTransactionId = try p.optionalString("appTransactionId")
        originalPlatform = try p.optionalString("originalPlatform")
        receiptCreationDate = try p.date("receiptCreationDate")
    }
}

/// A notification's `summary` (RENEWAL_EXTENSION, subtype SUMMARY): no purchase of one user.
package struct AppStoreNotificationSummary: Sendable, Equatable {
    package let requestIdentifier: String?
    package let environment: AppStoreEnvironment
    package let appAppleId: Int64?
    package let bundleId: String
    package let productId: String?
    package let succeededCount: Int64?
    package let failedCount: Int64?

    package init(_ p: PayloadReader) throws(AppStoreSignedDataError) {
        requestIdentifier = try p.optionalString("requestIdentifier")
        environment = try p.environment()
        appAppleId = try p.optionalInt64("appAppleId")
        bundleId = try p.string("bundleId")
        productId = try p.optionalString("productId")
        succeededCount = try p.optionalInt64("succeededCount")
        failedCount = try p.optionalInt64("failedCount")
    }
}

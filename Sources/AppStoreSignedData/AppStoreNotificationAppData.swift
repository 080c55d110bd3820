/// A notification's `appData` (RESCIND_CONSENT and other notifications about the app rather than
/// a purchase), with its nested `signedAppTransactionInfo` verified.
package struct AppStoreNotificationAppData: Sendable, Equatable {
    package let appAppleId: Int64?
    package let bundleId: String
    package let environment: AppStoreEnvironment
    /// From `signedAppTransactionInfo`, verified as a signed app transaction.
    package let appTransaction: AppStoreAppTransaction?
}

/// A verified App Store Server Notification V2 (Apple's ResponseBodyV2DecodedPayload). A
/// notification carries `data` (about one app's purchase), `summary` (the outcome of a
/// subscription-renewal-date extension for many users), `appData` (about the app itself:
/// RESCIND_CONSENT) or `externalPurchaseToken`; each one present is verified. A shape Apple adds
/// later carries none of those this service knows: its signature and chain are still verified,
/// and it is acknowledged without changing anything (contract v4).
package struct AppStoreNotification: Sendable, Equatable {
    /// "SUBSCRIBED", "DID_RENEW", "EXPIRED", "REFUND", ...
    package let notificationType: String
    /// "INITIAL_BUY", "GRACE_PERIOD", ...
    package let subtype: String?
    /// Unique per notification: a notification is processed at most once by it.
    package let notificationUUID: String
    package let version: String?
    /// Milliseconds since the epoch.
    package let signedDate: Int64
    package let data: AppStoreNotificationData?
    package let summary: AppStoreNotificationSummary?
    package let appData: AppStoreNotificationAppData?

    /// The environment of `data`, `summary` or `appData` (nil: a shape this service does not know).
    package var environment: AppStoreEnvironment? { data?.environment ?? summary?.environment ?? appData?.environment }
}

/// A verified App Store Server Notification V2 (Apple's ResponseBodyV2DecodedPayload). A
/// notification carries `data` (about one app's purchase) or `summary` (the outcome of a
/// subscription-renewal-date extension for many users); the verifier refuses one with neither.
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

    /// The environment of `data` or `summary`.
    package var environment: AppStoreEnvironment { data?.environment ?? summary!.environment }
}

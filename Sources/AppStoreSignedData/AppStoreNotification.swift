/// A verified App Store Server Notification V2 (Apple's ResponseBodyV2DecodedPayload). A
/// notification carries `data` (about one app's purchase) or `summary` (the outcome of a
/// subscription-renewal-date extension for many users); the verifier refuses one with neither.
public struct AppStoreNotification: Sendable, Equatable {
    /// "SUBSCRIBED", "DID_RENEW", "EXPIRED", "REFUND", ...
    public let notificationType: String
    /// "INITIAL_BUY", "GRACE_PERIOD", ...
    public let subtype: String?
    /// Unique per notification: a notification is processed at most once by it.
    public let notificationUUID: String
    public let version: String?
    /// Milliseconds since the epoch.
    public let signedDate: Int64
    public let data: AppStoreNotificationData?
    public let summary: AppStoreNotificationSummary?

    /// The environment of `data` or `summary`.
    public var environment: AppStoreEnvironment { data?.environment ?? summary!.environment }
}

/// A verified Sign in with Apple server-to-server notification (docs/API.md, "Notifications"):
/// one account event about one Apple identity.
package struct AppleAccountNotification: Sendable, Equatable {
    /// `events.type`: `email-disabled`, `email-enabled`, `consent-revoked`, `account-delete`, or
    /// a type Apple adds later (acknowledged, not acted on).
    package var eventType: String
    /// `events.sub`: the Apple identity, already checked as a safe provider id.
    package var subject: String
    /// The notification's `jti`: each is processed at most once.
    package var notificationID: String
    /// `events.event_time` when present (Apple sends seconds; kept as sent).
    package var eventTime: Int64?
}

import AccountDeletion
import AccountEvents
import AccountModel
import AccountStore
import AuthService
import PlatformSupport
import TokenVerification

/// Sign in with Apple's server-to-server notifications: `{"payload": "<JWT>"}` posted by Apple to
/// auth-link's Function URL (docs/API.md, "Notifications"). Answers 200 when processed, a
/// duplicate, about an identity no account has, or of a type this service does not act on; 400
/// when verification fails (nothing changes, Apple does not retry); 503 on a transient failure,
/// so that Apple retries.
package struct AppleAccountEventAction: Action {
    package static let name = "appleAccountEvent"
    /// An `account-delete` of an account's last provider deletes the account; the purge keeps
    /// this much time back for the record and the answer.
    package static let reserveMilliseconds: Int64 = 1_000

    package let payload: String

    package static func matches(_ invocation: Invocation) -> Bool {
        invocation.shape == .functionURL && invocation.request.object["payload"]?.stringValue != nil
    }

    package init(_ request: Request) throws(ServiceError) {
        payload = try request.requiredString("payload", maxBytes: Request.maxIDTokenBytes)
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let notification = try d.verifier.verifyAppleNotification(payload, deadline: deadline)
        guard let event = AppleAccountEvent(rawValue: notification.eventType) else {
            return .event(status: "ignored")
        }
        let result = try d.appleEvents.processAppleEvent(
            event, subject: notification.subject, eventID: notification.notificationID,
            purgeUntil: deadline.earlier(by: Self.reserveMilliseconds), deadline: deadline)
        return .appleEvent(result)
    }

    package func httpStatus(for error: ServiceError) -> Int { Self.notificationStatus(for: error) }
}

import PlatformSupport
import TokenVerification

/// One thing a function does, chosen by the request's `action` field (an app's call) or by the
/// invocation's shape (one of Apple's notifications, the schedule): it reads its fields (`init`,
/// which throws INVALID_REQUEST and the like before anything is sent anywhere), then runs
/// against the service's dependencies and answers the envelope's `data`. Adding an action is
/// one new type and one line in `AuthFunction.actions` (or `events`).
///
/// `run` throws the domain's own errors (`AccountError`, `TokenError`) or a `ServiceError`;
/// `ErrorMapping` turns them into the contract's codes in one place.
package protocol Action {
    /// The value of the request's `action` field that selects this action (for events: a name
    /// for logs).
    static var name: String { get }

    /// For an event: whether this invocation is one (its shape and members say so). Actions
    /// chosen by `action` never match.
    static func matches(_ invocation: Invocation) -> Bool

    init(_ request: Request) throws(ServiceError)

    /// The provider the request names, for error messages ("…this Google sign-in").
    var provider: IdentityProvider? { get }

    func run(_ dependencies: ServiceDependencies, deadline: Deadline) throws -> Answer

    /// The HTTP status a success is answered with (Function URL calls only): 200, except for
    /// senders that expect another (Google's security events: 202).
    var successStatus: Int { get }

    /// The HTTP status a refusal is answered with (Function URL calls only). Apple's
    /// notification senders retry on some statuses and not others, so events choose their own.
    func httpStatus(for error: ServiceError) -> Int
}

extension Action {
    package static func matches(_ invocation: Invocation) -> Bool { false }
    package var provider: IdentityProvider? { nil }
    package var successStatus: Int { 200 }
    package func httpStatus(for error: ServiceError) -> Int { error.code.httpStatus }

    /// The status for Apple's notification senders, which retry on 5xx and not on 4xx: 400 only
    /// when the notification itself is refused (its body, its signature or token, what it
    /// claims), 503 for every other failure (contract v4), a CONFLICT that bounded retries did
    /// not settle included: a refund or an account-delete is never dropped (issue 23;
    /// docs/decisions/runtime-and-http.md, "Events answer with their own HTTP statuses").
    package static func notificationStatus(for error: ServiceError) -> Int {
        switch error.code {
        case .invalidRequest, .invalidToken, .tokenExpired, .unsupportedProvider, .invalidPurchase: return 400
        default: return 503
        }
    }
}

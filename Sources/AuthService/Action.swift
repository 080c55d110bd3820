import AccountDomain
import PlatformSupport
import TokenVerification

/// One thing a function does, chosen by the request's `action` field: it reads its fields
/// (`init`, which throws INVALID_REQUEST and the like before anything is sent anywhere), then
/// runs against the service's dependencies and answers the envelope's `data`. Adding an action
/// is one new type and one line in `AuthFunction.actions`.
///
/// `run` throws the domain's own errors (`AccountError`, `TokenError`) or a `ServiceError`;
/// `ErrorMapping` turns them into the contract's codes in one place.
protocol Action {
    /// The value of the request's `action` field that selects this action.
    static var name: String { get }

    init(_ request: Request) throws(ServiceError)

    /// The provider the request names, for error messages ("…this Google sign-in").
    var provider: IdentityProvider? { get }

    func run(_ dependencies: ServiceDependencies, deadline: Deadline) throws -> Answer
}

extension Action {
    var provider: IdentityProvider? { nil }
}

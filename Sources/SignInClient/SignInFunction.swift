import Foundation

/// The three functions; a transport maps each to a Function URL or a Lambda function name.
public enum SignInFunction: String, Sendable, Hashable, CaseIterable {
    case signin = "auth-signin"
    case refresh = "auth-refresh"
    case link = "auth-link"

    /// The function's `Timeout` in template.yaml: 10 s, and 30 s for auth-link (a deletion purges
    /// the account's objects within its invocation). An attempt is never abandoned before it has
    /// passed (docs/client.md, "Timeouts"); a transport takes other values if a deployment changed them.
    public var templateTimeout: TimeInterval {
        switch self {
        case .signin, .refresh: return 10
        case .link: return 30
        }
    }
}

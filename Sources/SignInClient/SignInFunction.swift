/// The three functions; a transport maps each to a Function URL or a Lambda function name.
public enum SignInFunction: String, Sendable, Hashable, CaseIterable {
    case signin = "auth-signin"
    case refresh = "auth-refresh"
    case link = "auth-link"
}

import AuthService

extension AuthFunction {
    /// auth-signin: sign-in and sign-up, and Sign in with Apple's return URL on its Function URL.
    package static let signin = AuthFunction(
        name: "auth-signin", actions: [SignInAction.self], servesAppleWebReturn: true)
}

import AuthService

extension AuthFunction {
    /// auth-refresh: the sessions (refresh, list, the sign-outs). It verifies no ID token.
    package static let refresh = AuthFunction(
        name: "auth-refresh",
        actions: [
            RefreshAction.self, SignOutAction.self, ListSessionsAction.self, SignOutOthersAction.self,
            SignOutSessionAction.self,
        ],
        verifiesIDTokens: false)
}

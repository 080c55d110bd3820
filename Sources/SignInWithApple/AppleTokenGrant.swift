/// What Apple's `/auth/token` gave for an authorization code. The caller verifies `idToken` with
/// its TokenVerifier (it must name the account's Apple identity) before revoking anything. Every
/// token is a bearer credential: none appears in a description, a debug description or a mirror.
package struct AppleTokenGrant: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    package let idToken: String
    package let refreshToken: String?
    package let accessToken: String?

    package init(idToken: String, refreshToken: String?, accessToken: String?) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.accessToken = accessToken
    }

    /// The token that ends the user's authorization at Apple: the refresh token, or the access
    /// token when Apple sent no refresh token. An exchange never yields a grant with neither.
    package var revocable: (token: String, kind: AppleTokenKind) {
        if let refreshToken { return (refreshToken, .refreshToken) }
        return (accessToken ?? "", .accessToken)
    }

    package var description: String {
        func shown(_ token: String?) -> String { token == nil ? "none" : "redacted" }
        return "AppleTokenGrant(idToken: redacted, refreshToken: \(shown(refreshToken)), "
            + "accessToken: \(shown(accessToken)))"
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror {
        func shown(_ token: String?) -> String { token == nil ? "none" : "redacted" }
        return Mirror(
            self,
            children: ["idToken": "redacted", "refreshToken": shown(refreshToken), "accessToken": shown(accessToken)])
    }
}

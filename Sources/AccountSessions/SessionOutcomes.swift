import AWSClients
import AccountModel
import AccountStore
import TokenVerification

/// What sign-in and refresh hand back besides the user.
package struct IssuedSession: Sendable {
    package var credentials: TemporaryCredentials
    package var refreshToken: RefreshToken
    package var refreshTokenExpiresAtMs: Int64
    package var storagePrefix: String

    package init(
        credentials: TemporaryCredentials, refreshToken: RefreshToken, refreshTokenExpiresAtMs: Int64,
        storagePrefix: String
    ) {
        self.credentials = credentials
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAtMs = refreshTokenExpiresAtMs
        self.storagePrefix = storagePrefix
    }
}

package struct RefreshOutcome: Sendable {
    package var account: Account
    package var session: IssuedSession

    package init(account: Account, session: IssuedSession) {
        self.account = account
        self.session = session
    }
}

/// One live session of the account, as `list` shows it. The session id names it; it cannot
/// refresh anything.
package struct SessionSummary: Sendable, Equatable {
    package var sessionID: String
    package var provider: IdentityProvider
    package var device: String?
    package var signedInAtMs: Int64
    package var lastRefreshedAtMs: Int64
    package var expiresAtMs: Int64
    package var isCurrent: Bool

    package init(
        sessionID: String, provider: IdentityProvider, device: String? = nil, signedInAtMs: Int64,
        lastRefreshedAtMs: Int64, expiresAtMs: Int64, isCurrent: Bool
    ) {
        self.sessionID = sessionID
        self.provider = provider
        self.device = device
        self.signedInAtMs = signedInAtMs
        self.lastRefreshedAtMs = lastRefreshedAtMs
        self.expiresAtMs = expiresAtMs
        self.isCurrent = isCurrent
    }
}

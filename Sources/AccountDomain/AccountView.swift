import AWSClients
import PlatformSupport
import TokenVerification

/// A loaded account: the two documents with the ETags they were read at.
package struct Account: Sendable {
    package var profile: Profile
    var profileETag: String
    package var providers: ProvidersDocument
    var providersETag: String

    package var serviceUserID: String { profile.serviceUserID }
}

/// What sign-in and refresh hand back besides the user.
package struct IssuedSession: Sendable {
    package var credentials: TemporaryCredentials
    package var refreshToken: RefreshToken
    package var refreshTokenExpiresAtMs: Int64
    package var storagePrefix: String
}

package struct SignInOutcome: Sendable {
    package var isNewUser: Bool
    package var account: Account
    package var session: IssuedSession
    /// This sign-in moved the account's Apple identity to the recipient team's `sub` (an app
    /// transfer's re-key, contract v4): audited and counted.
    package var rekeyed = false
}

package struct RefreshOutcome: Sendable {
    package var account: Account
    package var session: IssuedSession
}

package enum LinkStatus: String, Sendable {
    case linked, alreadyLinked = "already_linked", unlinked
}

package struct LinkOutcome: Sendable {
    package var status: LinkStatus
    package var account: Account
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
}

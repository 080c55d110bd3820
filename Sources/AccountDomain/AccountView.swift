import AWSClients
import PlatformSupport
import TokenVerification

/// A loaded account: the two documents with the ETags they were read at.
public struct Account: Sendable {
    public var profile: Profile
    var profileETag: String
    public var providers: ProvidersDocument
    var providersETag: String

    public var serviceUserID: String { profile.serviceUserID }
}

/// What sign-in and refresh hand back besides the user.
public struct IssuedSession: Sendable {
    public var credentials: TemporaryCredentials
    public var refreshToken: RefreshToken
    public var refreshTokenExpiresAtMs: Int64
    public var storagePrefix: String
}

public struct SignInOutcome: Sendable {
    public var isNewUser: Bool
    public var account: Account
    public var session: IssuedSession
}

public struct RefreshOutcome: Sendable {
    public var account: Account
    public var session: IssuedSession
}

public enum LinkStatus: String, Sendable {
    case linked, alreadyLinked = "already_linked", unlinked
}

public struct LinkOutcome: Sendable {
    public var status: LinkStatus
    public var account: Account
}

/// One live session of the account, as `list` shows it. The session id names it; it cannot
/// refresh anything.
public struct SessionSummary: Sendable, Equatable {
    public var sessionID: String
    public var provider: IdentityProvider
    public var device: String?
    public var signedInAtMs: Int64
    public var lastRefreshedAtMs: Int64
    public var expiresAtMs: Int64
    public var isCurrent: Bool
}

import Foundation

/// What the functions answer (the `data` of a successful envelope), one type per answer. Unknown
/// fields are ignored (the contract only ever adds fields); every field the contract always sends
/// is required, so a missing one is an error that names its path.
public struct TemporaryCredentials: Codable, Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    public var accessKeyId: String
    public var secretAccessKey: String
    public var sessionToken: String
    public var expiration: Date

    /// Never shows the secret or the session token (also what `print` and `dump` show).
    public var redacted: String { "TemporaryCredentials(\(accessKeyId.prefix(4))…, expires \(expiration))" }
    public var description: String { redacted }
    public var debugDescription: String { redacted }
}

/// Where the user's files go: `prefix` is `users/<uuid>/`, the only place the credentials reach.
public struct StorageLocation: Codable, Sendable, Equatable {
    public var bucket: String
    public var region: String
    public var prefix: String
}

public struct LinkedProvider: Codable, Sendable, Equatable {
    public var type: String
    public var id: String
    public var email: String?
    public var isPrimary: Bool
    public var linkedAt: String?
    public var lastUsed: String?
}

/// The account's plan (`profile.json` `subscription`); purchase fields appear once one is claimed.
public struct Subscription: Codable, Sendable, Equatable {
    public var tier: String
    public var status: String?
    public var productID: String?
    public var originalTransactionId: String?
    public var environment: String?
    public var startDate: String?
    public var expiryDate: String?
    public var storageLimit: Int64?
    public var storageUsed: Int64?
}

public struct User: Codable, Sendable, Equatable {
    public var serviceUserID: String
    public var displayName: String?
    public var email: String?
    public var createdAt: String?
    public var lastUpdated: String?
    public var primaryProvider: String?
    public var providers: [LinkedProvider]
    public var subscription: Subscription?
}

/// auth-signin's answer (the app sees `SignInResult`; the refresh token stays in the session).
struct SignInAnswer: Decodable, Sendable {
    var isNewUser: Bool
    var user: User
    var credentials: TemporaryCredentials
    var storage: StorageLocation
    var refreshToken: String
    var refreshTokenExpiresAt: Date
}

/// auth-refresh `refresh`: a NEW refresh token; the presented one stops working.
struct RefreshAnswer: Decodable, Sendable {
    var user: User
    var credentials: TemporaryCredentials
    var storage: StorageLocation
    var refreshToken: String
    var refreshTokenExpiresAt: Date
}

/// One of the account's live sessions (auth-refresh `list`); `sessionId` is not a secret.
public struct SessionSummary: Codable, Sendable, Equatable {
    public var sessionId: String
    public var provider: String
    public var device: String?
    public var signedInAt: Date
    public var lastRefreshedAt: Date?
    public var expiresAt: Date
    public var current: Bool
}

struct SessionList: Decodable, Sendable { var sessions: [SessionSummary] }
struct SignedOut: Decodable, Sendable { var signedOut: Bool }
struct SignedOutCount: Decodable, Sendable { var signedOut: Int }

/// auth-link `link` / `unlink`: `linked`, `already_linked` or `unlinked`, and the user after it.
public struct LinkAnswer: Decodable, Sendable {
    public var status: String
    public var user: User
}

/// auth-link `delete`. `purge` is `complete` or `pending` (the scheduled run finishes it);
/// `appleTokensRevoked` is nil when the account had no Apple identity or revocation is off.
public struct DeletionAnswer: Decodable, Sendable {
    public var deleted: Bool
    public var serviceUserID: String
    public var purge: String
    public var appleTokensRevoked: Bool?
}

/// auth-link `claimPurchase`: `claimed` or `already_claimed`.
public struct PurchaseClaimAnswer: Decodable, Sendable {
    public var status: String
    public var subscription: Subscription
    public var user: User
}

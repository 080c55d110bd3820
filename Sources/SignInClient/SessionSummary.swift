import Foundation

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

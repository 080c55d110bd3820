/// Apple's answer about one user at `/auth/usermigrationinfo`.
package enum AppleMigrationAnswer<Value: Sendable>: Sendable {
    case value(Value)
    /// Apple refused this user: `invalid_request` (usually the user revoked the app before the
    /// transfer; TN3107, and Apple DTS on the developer forums), or `unreadable answer`.
    case refused(String)
    /// Apple could not be asked (429 or 5xx after the attempts, the client or its token refused,
    /// the deadline): why, in a few words, never a token or an identifier.
    case unavailable(String)
}

/// The recipient team's view of a transferred user.
package struct AppleMigratedUser: Sendable, Equatable {
    package var sub: String
    package var email: String?
    package var isPrivateEmail: Bool?
}

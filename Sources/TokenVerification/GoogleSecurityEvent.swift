/// One event of a verified Google security event token (Cross-Account Protection, RISC): its
/// type, and what it says about whom.
package struct GoogleSecurityEvent: Sendable, Equatable {
    /// The event types Google documents; anything else is `other` (logged and acknowledged).
    package enum Kind: String, Sendable, CaseIterable {
        case sessionsRevoked = "sessions-revoked"
        case tokensRevoked = "tokens-revoked"
        case tokenRevoked = "token-revoked"
        case accountDisabled = "account-disabled"
        case accountEnabled = "account-enabled"
        case accountCredentialChangeRequired = "account-credential-change-required"
        case verification
        case other

        static let riscPrefix = "https://schemas.openid.net/secevent/risc/event-type/"
        static let oauthPrefix = "https://schemas.openid.net/secevent/oauth/event-type/"

        /// The event type URI Google uses for it (the OAuth ones are in the oauth namespace).
        package var uri: String? {
            switch self {
            case .tokensRevoked, .tokenRevoked: return Self.oauthPrefix + rawValue
            case .other: return nil
            default: return Self.riscPrefix + rawValue
            }
        }

        init(uri: String) {
            self = Self.allCases.first { $0.uri == uri } ?? .other
        }
    }

    package var kind: Kind
    /// The event type as sent (for the log when it is `other`).
    package var type: String
    /// The Google identity (`sub`) the subject names: `iss-sub` or `id_token_claims` with Google's
    /// issuer. Nil for a subject of another kind (an OAuth token, which this service never
    /// holds) or none at all (`verification`).
    package var subject: String?
    /// The subject's kind as sent (`iss-sub`, `id_token_claims`, `oauth_token`, …).
    package var subjectType: String?
    /// `account-disabled`'s `reason` (`hijacking`, `bulk-account`).
    package var reason: String?
    /// `verification`'s `state`, echoed in the log (the operator's own text from `stream:verify`).
    package var state: String?
}

/// A verified Google security event token (RFC 8417 SET, Google's RISC profile).
package struct GoogleSecurityEventToken: Sendable, Equatable {
    /// `jti`: each is processed at most once.
    package var eventID: String
    /// `iat`, in seconds.
    package var issuedAt: Int64
    /// The events it carries (Google sends one per token).
    package var events: [GoogleSecurityEvent]
}

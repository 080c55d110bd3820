/// The identity providers whose ID tokens this service accepts. `firebase` is opt-in
/// (`FIREBASE_PROJECT_ID`), for apps moving from Firebase Auth.
package enum IdentityProvider: String, Sendable, CaseIterable {
    case apple, google, firebase

    /// For messages: "Apple", "Google", "Firebase".
    package var displayName: String {
        switch self {
        case .apple: return "Apple"
        case .google: return "Google"
        case .firebase: return "Firebase"
        }
    }

    /// For messages that list providers by the names a request uses: "apple, google", or
    /// "none" when the list is empty.
    package static func names(_ providers: [IdentityProvider]) -> String {
        providers.isEmpty ? "none" : providers.map(\.rawValue).joined(separator: ", ")
    }
}

/// What a verified ID token says about its user. `subject` is the provider's stable user id
/// (already checked against `[A-Za-z0-9._-]{1,255}`, never `.` or `..`, so it is safe as an S3
/// key segment; a Firebase uid also at most 128 characters).
package struct VerifiedIdentity: Sendable, Equatable {
    package var provider: IdentityProvider
    package var subject: String
    package var email: String?
    package var emailVerified: Bool?
    /// Apple's `is_private_email` (a private-relay address).
    package var isPrivateEmail: Bool?
    /// Google's and Firebase's `name`; Apple's tokens carry none (the app passes it on first sign-in).
    package var name: String?
    /// Apple's `real_user_status` (0 unsupported, 1 unknown, 2 likely real).
    package var realUserStatus: Int?
    /// Apple's `transfer_sub` (contract v4, "An app moved to another Apple developer team"): for
    /// 60 days after an app transfer, the user's transfer identifier for this team, alongside the
    /// new team-scoped `subject`. Same rule as `subject` (a safe key segment); nil otherwise.
    package var transferSub: String?

    package init(
        provider: IdentityProvider, subject: String, email: String? = nil, emailVerified: Bool? = nil,
        isPrivateEmail: Bool? = nil, name: String? = nil, realUserStatus: Int? = nil, transferSub: String? = nil
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.name = name
        self.realUserStatus = realUserStatus
        self.transferSub = transferSub
    }
}

/// Why a token was refused. `message` says what was wrong and never quotes the token or a
/// claim's value.
package struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// INVALID_TOKEN: malformed, bad signature, unknown key, wrong issuer/audience/nonce…
        case invalid
        /// TOKEN_EXPIRED: `exp` passed, beyond the leeway.
        case expired
        /// UNSUPPORTED_PROVIDER: the provider is not enabled in this deployment.
        case unsupportedProvider
        /// UPSTREAM_UNAVAILABLE: the provider's keys could not be obtained (no usable cache).
        case keysUnavailable
    }

    package let kind: Kind
    package let message: String

    package init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    static func invalid(_ message: String) -> TokenError { TokenError(kind: .invalid, message: message) }

    package var description: String { "\(kind): \(message)" }
}

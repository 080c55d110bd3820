/// Whose signing keys a token is verified with: an identity provider's ID-token keys, or the keys
/// of Google's security event tokens (the `jwks_uri` of Google's RISC configuration,
/// `GOOGLE_RISC_JWKS_URL`). Each has its own JWKS cache, even when the URLs are the same.
enum KeySource: Hashable, Sendable {
    case provider(IdentityProvider)
    case googleSecurityEvents

    /// For messages: "Google", "Google's security-event".
    var name: String {
        switch self {
        case .provider(let p): return p.displayName
        case .googleSecurityEvents: return "Google's security-event"
        }
    }

    /// For messages: "Google's", "Google's security-event".
    var owner: String {
        switch self {
        case .provider(let p): return "\(p.displayName)'s"
        case .googleSecurityEvents: return name
        }
    }
}

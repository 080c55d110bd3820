import PlatformSupport

/// One provider's settings. No audiences means the provider is off in this deployment.
package struct ProviderSettings: Sendable, Equatable {
    /// Accepted `aud` values (for Google also the accepted `azp` values).
    package var audiences: [String]
    package var jwksURL: String

    package init(audiences: [String], jwksURL: String) {
        self.audiences = audiences
        self.jwksURL = jwksURL
    }

    package var isEnabled: Bool { !audiences.isEmpty }
}

public struct VerifierConfiguration: Sendable, Equatable {
    static let defaultAppleJWKSURL = "https://appleid.apple.com/auth/keys"
    static let defaultGoogleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"

    package var apple: ProviderSettings
    package var google: ProviderSettings
    /// Clock leeway for `exp`, `iat` and `nbf` (docs/API.md, TOKEN_EXPIRED: 60 s).
    package var leewaySeconds: Int64

    package init(apple: ProviderSettings, google: ProviderSettings, leewaySeconds: Int64 = 60) {
        self.apple = apple
        self.google = google
        self.leewaySeconds = leewaySeconds
    }

    func settings(for provider: IdentityProvider) -> ProviderSettings {
        switch provider {
        case .apple: return apple
        case .google: return google
        }
    }

    /// `APPLE_AUDIENCES`, `GOOGLE_AUDIENCES` (comma-separated; empty or unset = provider off),
    /// `APPLE_JWKS_URL`, `GOOGLE_JWKS_URL` (empty or unset = the providers' real endpoints; else
    /// https, or http to a loopback host for tests: `HTTPURL.httpsOrLoopback`).
    package static func fromEnvironment() throws(ConfigurationError) -> VerifierConfiguration {
        try from(environment: { Environment.get($0) })
    }

    /// The same over any lookup (tests pass a dictionary).
    package static func from(environment get: (String) -> String?) throws(ConfigurationError) -> VerifierConfiguration {
        func url(_ name: String, _ fallback: String) throws(ConfigurationError) -> String {
            guard let value = get(name), !value.isEmpty else { return fallback }
            _ = try HTTPURL.httpsOrLoopback(value, variable: name)
            return value
        }
        let apple = ProviderSettings(
            audiences: audiences(get("APPLE_AUDIENCES")), jwksURL: try url("APPLE_JWKS_URL", defaultAppleJWKSURL))
        let google = ProviderSettings(
            audiences: audiences(get("GOOGLE_AUDIENCES")), jwksURL: try url("GOOGLE_JWKS_URL", defaultGoogleJWKSURL))
        return VerifierConfiguration(apple: apple, google: google)
    }

    /// Comma-separated, blanks around items trimmed, empty items dropped, duplicates removed.
    static func audiences(_ text: String?) -> [String] {
        guard let text else { return [] }
        var out: [String] = []
        for item in text.split(separator: ",") {
            let value = String(item).trimmingASCIISpaces()
            if !value.isEmpty && !out.contains(value) { out.append(value) }
        }
        return out
    }
}

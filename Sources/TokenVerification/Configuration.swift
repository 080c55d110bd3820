import PlatformSupport

/// One provider's settings. No audiences means the provider is off in this deployment.
package struct ProviderSettings: Sendable, Equatable {
    /// Accepted `aud` values (for Google also the accepted `azp` values).
    package var audiences: [String]
    package var jwksURL: String
    /// Audiences whose tokens must carry a nonce that the request presents (Apple: the Services
    /// IDs of the web flow, `APPLE_WEB_AUDIENCES`); each is also one of `audiences`.
    package var nonceRequired: [String]

    package init(audiences: [String], jwksURL: String, nonceRequired: [String] = []) {
        self.audiences = audiences
        self.jwksURL = jwksURL
        self.nonceRequired = nonceRequired
    }

    package var isEnabled: Bool { !audiences.isEmpty }
}

package struct VerifierConfiguration: Sendable, Equatable {
    static let defaultAppleJWKSURL = "https://appleid.apple.com/auth/keys"
    static let defaultGoogleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// The `jwks_uri` of https://accounts.google.com/.well-known/risc-configuration.
    static let defaultGoogleRISCJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"
    /// The `issuer` of Google's RISC configuration. Google's own example token writes it with a
    /// trailing slash, the configuration without: both name the same issuer, and both are
    /// accepted (the key is what is trusted). docs/decisions/tokens.md, "Google's security events".
    static let googleRISCIssuers = ["https://accounts.google.com", "https://accounts.google.com/"]

    package var apple: ProviderSettings
    package var google: ProviderSettings
    package var firebase: FirebaseSettings
    /// The keys of Google's security event tokens (`GOOGLE_RISC_JWKS_URL`); their `aud` is one
    /// of Google's audiences, so they are accepted exactly when Google sign-in is on.
    package var googleRISCJWKSURL = defaultGoogleRISCJWKSURL
    /// Clock leeway for `exp`, `iat`, `nbf` and Firebase's `auth_time` (docs/API.md, TOKEN_EXPIRED: 60 s).
    package var leewaySeconds: Int64

    package init(
        apple: ProviderSettings, google: ProviderSettings, firebase: FirebaseSettings = .off,
        leewaySeconds: Int64 = 60
    ) {
        self.apple = apple
        self.google = google
        self.firebase = firebase
        self.leewaySeconds = leewaySeconds
    }

    func jwksURL(for source: KeySource) -> String {
        switch source {
        case .provider(let p): return settings(for: p).jwksURL
        case .googleSecurityEvents: return googleRISCJWKSURL
        }
    }

    func settings(for provider: IdentityProvider) -> ProviderSettings {
        switch provider {
        case .apple: return apple
        case .google: return google
        case .firebase: return firebase.providerSettings
        }
    }

    /// The `iss` values a provider's tokens carry: fixed for Apple and Google, the project's for
    /// Firebase (none while it is off). docs/API.md: a wrong issuer is INVALID_TOKEN.
    func issuers(for provider: IdentityProvider) -> [String] {
        switch provider {
        case .apple: return ["https://appleid.apple.com"]
        case .google: return ["https://accounts.google.com", "accounts.google.com"]
        case .firebase: return firebase.issuer.map { [$0] } ?? []
        }
    }

    /// The providers this deployment accepts, in `IdentityProvider` order (for messages and the
    /// key prefetch).
    package var enabledProviders: [IdentityProvider] {
        IdentityProvider.allCases.filter { settings(for: $0).isEnabled }
    }

    /// `APPLE_AUDIENCES`, `GOOGLE_AUDIENCES` (comma-separated; empty or unset = provider off),
    /// `APPLE_WEB_AUDIENCES` (the web flow's Services IDs: accepted too, and only with the nonce),
    /// `APPLE_JWKS_URL`, `GOOGLE_JWKS_URL`, `GOOGLE_RISC_JWKS_URL` (empty or unset = the providers' real endpoints; else
    /// https, or http to a loopback host for tests: `HTTPURL.httpsOrLoopback`), and Firebase's
    /// three (`FirebaseSettings.from(environment:)`).
    package static func fromEnvironment() throws(ConfigurationError) -> VerifierConfiguration {
        try from(environment: { Environment.get($0) })
    }

    /// The same over any lookup (tests pass a dictionary).
    package static func from(environment get: (String) -> String?) throws(ConfigurationError) -> VerifierConfiguration {
        let appleWeb = audiences(get("APPLE_WEB_AUDIENCES"))
        let appleNative = audiences(get("APPLE_AUDIENCES"))
        let apple = ProviderSettings(
            audiences: appleNative + appleWeb.filter { !appleNative.contains($0) },
            jwksURL: try jwksURL(get, "APPLE_JWKS_URL", default: defaultAppleJWKSURL), nonceRequired: appleWeb)
        let google = ProviderSettings(
            audiences: audiences(get("GOOGLE_AUDIENCES")),
            jwksURL: try jwksURL(get, "GOOGLE_JWKS_URL", default: defaultGoogleJWKSURL))
        var configuration = VerifierConfiguration(
            apple: apple, google: google, firebase: try FirebaseSettings.from(environment: get))
        configuration.googleRISCJWKSURL = try jwksURL(
            get, "GOOGLE_RISC_JWKS_URL", default: defaultGoogleRISCJWKSURL)
        return configuration
    }

    /// A JWKS URL setting: empty or unset = `fallback`; else it must pass `HTTPURL.httpsOrLoopback`
    /// and is kept as written.
    static func jwksURL(
        _ get: (String) -> String?, _ name: String, default fallback: String
    ) throws(ConfigurationError) -> String {
        guard let value = get(name), !value.isEmpty else { return fallback }
        _ = try HTTPURL.httpsOrLoopback(value, variable: name)
        return value
    }

    static func audiences(_ text: String?) -> [String] { text?.commaSeparatedItems() ?? [] }
}

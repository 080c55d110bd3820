import PlatformSupport

/// One provider's settings. No audiences means the provider is off in this deployment.
public struct ProviderSettings: Sendable, Equatable {
    /// Accepted `aud` values (for Google also the accepted `azp` values).
    public var audiences: [String]
    public var jwksURL: String

    public init(audiences: [String], jwksURL: String) {
        self.audiences = audiences
        self.jwksURL = jwksURL
    }

    public var isEnabled: Bool { !audiences.isEmpty }
}

public struct VerifierConfiguration: Sendable, Equatable {
    public static let defaultAppleJWKSURL = "https://appleid.apple.com/auth/keys"
    public static let defaultGoogleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"

    public var apple: ProviderSettings
    public var google: ProviderSettings
    /// Clock leeway for `exp`, `iat` and `nbf` (CONTRACT.md: 60 s).
    public var leewaySeconds: Int64

    public init(apple: ProviderSettings, google: ProviderSettings, leewaySeconds: Int64 = 60) {
        self.apple = apple
        self.google = google
        self.leewaySeconds = leewaySeconds
    }

    public func settings(for provider: IdentityProvider) -> ProviderSettings {
        switch provider {
        case .apple: return apple
        case .google: return google
        }
    }

    /// `APPLE_AUDIENCES`, `GOOGLE_AUDIENCES` (comma-separated; empty or unset = provider off),
    /// `APPLE_JWKS_URL`, `GOOGLE_JWKS_URL` (empty or unset = the providers' real endpoints).
    public static func fromEnvironment() throws(ConfigurationError) -> VerifierConfiguration {
        try from(environment: { Environment.get($0) })
    }

    /// The same over any lookup (tests pass a dictionary).
    public static func from(environment get: (String) -> String?) throws(ConfigurationError) -> VerifierConfiguration {
        func url(_ name: String, _ fallback: String) throws(ConfigurationError) -> String {
            guard let value = get(name), !value.isEmpty else { return fallback }
            if let problem = jwksURLProblem(value) { throw ConfigurationError(variable: name, message: problem) }
            return value
        }
        let apple = ProviderSettings(audiences: audiences(get("APPLE_AUDIENCES")), jwksURL: try url("APPLE_JWKS_URL", defaultAppleJWKSURL))
        let google = ProviderSettings(audiences: audiences(get("GOOGLE_AUDIENCES")), jwksURL: try url("GOOGLE_JWKS_URL", defaultGoogleJWKSURL))
        return VerifierConfiguration(apple: apple, google: google)
    }

    /// Comma-separated, blanks around items trimmed, empty items dropped, duplicates removed.
    static func audiences(_ text: String?) -> [String] {
        guard let text else { return [] }
        var out: [String] = []
        for item in text.split(separator: ",") {
            var s = item[...]
            while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
            while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
            let value = String(s)
            if !value.isEmpty && !out.contains(value) { out.append(value) }
        }
        return out
    }

    /// nil when the URL may be used for a JWKS: `https://host…`, or `http://` to a loopback
    /// host (127.0.0.0/8, `localhost`, `[::1]`) for tests. Otherwise what is wrong with it.
    static func jwksURLProblem(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard bytes.count <= 2048, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            return "is not a URL (blanks, control or non-ASCII characters)"
        }
        let lower = url.lowercased()
        let isHTTPS = lower.hasPrefix("https://")
        guard isHTTPS || lower.hasPrefix("http://") else { return "must be an https URL" }
        let rest = lower.dropFirst(isHTTPS ? 8 : 7)
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.contains("@") else { return "must not carry user information" }
        let host: Substring
        let port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "has a malformed host" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { port = nil } else {
                guard after.hasPrefix(":") else { return "has a malformed host" }
                port = after.dropFirst()
            }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
        }
        guard !host.isEmpty else { return "has no host" }
        if let port, port.isEmpty || port.count > 5 || !port.allSatisfy({ $0 >= "0" && $0 <= "9" }) { return "has a malformed port" }
        if isHTTPS { return nil }
        return isLoopback(host) ? nil : "must be https (plain http is allowed only to a loopback host)"
    }

    static func isLoopback(_ host: Substring) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        for o in octets {
            guard !o.isEmpty, o.count <= 3, o.allSatisfy({ $0 >= "0" && $0 <= "9" }), let v = Int(o), v <= 255 else { return false }
        }
        return octets[0] == "127"
    }
}

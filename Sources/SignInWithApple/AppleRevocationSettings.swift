import CryptoPrimitives
import PlatformSupport

/// Sign in with Apple token revocation (account deletion, App Store Review Guideline 5.1.1(v)):
/// the team and key that sign `client_secret`, the `client_id` at Apple, and where Apple's token
/// endpoints are. Read once at init; `nil` from `from(environment:)` means revocation is off.
/// The key's PEM never shows in a description or a mirror (`AppleKeySource` redacts it).
package struct AppleRevocationSettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    package static let defaultAuthURL = "https://appleid.apple.com"
    /// Apple's Team IDs and Key IDs: ten characters, uppercase letters and digits.
    static let identifierLength = 10
    static let maxClientIDBytes = 255

    /// `iss` of `client_secret`.
    package let teamID: String
    /// `kid` of `client_secret`.
    package let keyID: String
    /// `client_id` at `/auth/token` and `/auth/revoke`, and `sub` of `client_secret`; the `aud` of
    /// the id_token Apple returns.
    package let clientID: String
    /// `scheme://host[:port][/path]` without a trailing slash; `/auth/token` and `/auth/revoke`
    /// are appended.
    package let authURL: String
    package let keySource: AppleKeySource

    package init(teamID: String, keyID: String, clientID: String, authURL: String, keySource: AppleKeySource) {
        self.teamID = teamID
        self.keyID = keyID
        self.clientID = clientID
        self.authURL = authURL
        self.keySource = keySource
    }

    /// From the process environment (`from(environment:)` with `Environment.get`).
    package static func fromEnvironment() throws(ConfigurationError) -> AppleRevocationSettings? {
        try from(environment: { Environment.get($0) })
    }

    /// `APPLE_TEAM_ID` and `APPLE_KEY_ID` (both unset or empty: revocation off, nil; one alone is
    /// an error), exactly one of `APPLE_PRIVATE_KEY` / `APPLE_PRIVATE_KEY_PARAMETER`,
    /// `APPLE_CLIENT_ID` (default: the first of `APPLE_AUDIENCES`; when both are given it must be
    /// one of them, since Apple's id_token names it as its audience) and `APPLE_AUTH_URL` (https,
    /// or http to a loopback host; no query or fragment). An empty variable counts as unset.
    /// Errors name the variable and the rule, never the value.
    package static func from(environment get: (String) -> String?) throws(ConfigurationError) -> Self? {
        func value(_ name: String) -> String? {
            guard let v = get(name), !v.isEmpty else { return nil }
            return v
        }
        func refuse(_ variable: String, _ message: String) -> ConfigurationError {
            ConfigurationError(variable: variable, message: message)
        }
        let team = value("APPLE_TEAM_ID")
        let key = value("APPLE_KEY_ID")
        guard team != nil || key != nil else { return nil }
        guard let team else { throw refuse("APPLE_TEAM_ID", "is not set, but APPLE_KEY_ID is (set both or neither)") }
        guard let key else { throw refuse("APPLE_KEY_ID", "is not set, but APPLE_TEAM_ID is (set both or neither)") }
        guard isAppleIdentifier(team) else { throw refuse("APPLE_TEAM_ID", "must be 10 characters of A-Z and 0-9") }
        guard isAppleIdentifier(key) else { throw refuse("APPLE_KEY_ID", "must be 10 characters of A-Z and 0-9") }

        // a typo in the parameter's name stops the init, not a deletion
        let keySource = try AppleKeySource.from(environment: value, requiredWhenSet: "APPLE_TEAM_ID")

        let audiences = value("APPLE_AUDIENCES")?.commaSeparatedItems() ?? []  // as TokenVerification reads it
        let clientID: String
        if let configured = value("APPLE_CLIENT_ID") {
            clientID = configured.trimmingASCIISpaces()
            guard isClientID(clientID) else {
                throw refuse("APPLE_CLIENT_ID", "must be 1-255 printable ASCII characters without blanks")
            }
            guard audiences.isEmpty || audiences.contains(clientID) else {
                throw refuse("APPLE_CLIENT_ID", "must be one of APPLE_AUDIENCES (the returned id_token's audience)")
            }
        } else if let first = audiences.first {
            clientID = first
            guard isClientID(clientID) else {
                throw refuse("APPLE_AUDIENCES", "must begin with 1-255 printable ASCII characters without blanks")
            }
        } else {
            throw refuse("APPLE_CLIENT_ID", "is not set and APPLE_AUDIENCES is empty (no client id for Apple)")
        }

        let authURL = try baseURL(value("APPLE_AUTH_URL") ?? defaultAuthURL, variable: "APPLE_AUTH_URL")
        return AppleRevocationSettings(
            teamID: team, keyID: key, clientID: clientID, authURL: authURL, keySource: keySource)
    }

    /// The URL rule of provider endpoints (`HTTPURL.httpsOrLoopback`), and no query or fragment
    /// (paths are appended); rebuilt from its parts, so trailing slashes go.
    static func baseURL(_ text: String, variable: String) throws(ConfigurationError) -> String {
        let url = try HTTPURL.httpsOrLoopback(text, variable: variable, allowingQueryAndFragment: false)
        var path = Substring(url.path)
        while path.hasSuffix("/") { path = path.dropLast() }
        return url.scheme + "://" + url.host + (url.port.map { ":" + String($0) } ?? "") + path
    }

    static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == identifierLength
            && text.utf8.allSatisfy { ASCII.isDigit($0) || (ASCII.isAlphanumeric($0) && !ASCII.isLower($0)) }
    }

    static func isClientID(_ text: String) -> Bool {
        (1...maxClientIDBytes).contains(text.utf8.count) && text.utf8.allSatisfy(ASCII.isVisible)
    }

    package var description: String {
        "AppleRevocationSettings(teamID: \(teamID), keyID: \(keyID), clientID: \(clientID), authURL: \(authURL), "
            + "keySource: \(keySource))"
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "teamID": teamID, "keyID": keyID, "clientID": clientID, "authURL": authURL,
                "keySource": keySource.description,
            ])
    }
}

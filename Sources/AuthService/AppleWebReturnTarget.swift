import PlatformSupport

/// `APPLE_WEB_RETURN_TARGET` (contract v4, "Sign in with Apple on Android and the web"): the one
/// app target auth-signin's Apple return URL redirects to, read once at start-up. Either an
/// Android App Link (`https://host/path`, no query, no fragment: the fields become the fragment)
/// or an intent URL (`intent://host/path#Intent;scheme=…;package=…;end`: its fragment is Android's
/// intent syntax, so the fields go in the query of its data URI, which the browser hands to the app
/// and never fetches). An intent URL must name its `package`: a bare scheme could be claimed by any
/// app, which would then receive the ID token.
package struct AppleWebReturnTarget: Sendable, Equatable {
    /// Everything before the fields.
    package let head: String
    /// `#` for an App Link (the fields are its fragment), `?` for an intent URL's data URI.
    package let separator: String
    /// Everything after the fields (an intent URL's `#Intent;…;end`).
    package let tail: String

    package static let variable = "APPLE_WEB_RETURN_TARGET"

    /// The target, or nil when the variable is unset (the return URL is off).
    package static func from(environment env: (String) -> String?) throws(ConfigurationError) -> AppleWebReturnTarget? {
        guard let text = env(variable) else { return nil }
        return try AppleWebReturnTarget(text)
    }

    package init(_ text: String) throws(ConfigurationError) {
        func refuse(_ message: String) -> ConfigurationError {
            ConfigurationError(variable: Self.variable, message: message)
        }
        let bytes = Array(text.utf8)
        guard bytes.count <= 2048, bytes.allSatisfy(ASCII.isVisible) else {
            throw refuse("is not a URL (blanks, control or non-ASCII characters, or longer than 2048 bytes)")
        }
        if text.hasPrefix("intent:") {
            let parts = text.split(separator: "#", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].hasPrefix("Intent;"), parts[1].hasSuffix(";end"),
                parts[0].count > "intent:".count, !parts[0].contains("?")
            else {
                throw refuse("must be an intent URL intent://HOST/PATH#Intent;...;end (no query), or an https App Link")
            }
            let extras = parts[1].split(separator: ";")
            guard extras.contains(where: { $0.hasPrefix("package=") && $0.count > "package=".count }) else {
                throw refuse("must name the app's package (package=...): any app could claim a bare scheme")
            }
            (head, separator, tail) = (String(parts[0]), "?", "#" + parts[1])
        } else {
            let url = try HTTPURL(text, variable: Self.variable)
            guard url.scheme == "https" else { throw refuse("must be https (an Android App Link) or an intent URL") }
            (head, separator, tail) = (text, "#", "")
        }
    }

    /// The target carrying `fields` (form-encoded, RFC 3986 unreserved characters kept).
    package func location(carrying fields: [(String, String)]) -> String {
        var encoded: [UInt8] = []
        for (i, (name, value)) in fields.enumerated() {
            if i > 0 { encoded.append(UInt8(ascii: "&")) }
            PercentEncoding.append(name, to: &encoded)
            encoded.append(UInt8(ascii: "="))
            PercentEncoding.append(value, to: &encoded)
        }
        return head + separator + String(decoding: encoded, as: UTF8.self) + tail
    }
}

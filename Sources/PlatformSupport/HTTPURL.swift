/// An `http`/`https` URL from configuration (`AWS_ENDPOINT_URL*`, the JWKS URLs), parsed once by
/// one set of rules so every setting agrees on where the host ends: printable ASCII only, at most
/// 2048 bytes; `scheme://host[:port][/path][?query][#fragment]` with the scheme either case, a
/// host of `a-z 0-9 . -` (lowercased) or an IPv6 literal in brackets, a port of 1–5 digits in
/// 1–65535. User information (`user@`) is refused: a URL that names a host twice invites two
/// readers to disagree on which one it means. A query or fragment only where the caller allows it.
package struct HTTPURL: Sendable, Equatable {
    package static let maxBytes = 2048

    /// `http` or `https`, lowercase.
    package let scheme: String
    /// Lowercase host name or IPv4 address, or an IPv6 literal with its brackets (`[::1]`).
    package let host: String
    package let port: Int?
    /// As written, "" or starting with `/`; the query and fragment are not part of it.
    package let path: String

    var isHTTPS: Bool { scheme == "https" }

    /// Parses `text`, the value of `variable`; a refusal names the variable, never the value.
    package init(_ text: String, variable: String, allowingQueryAndFragment: Bool = false) throws(ConfigurationError) {
        func refuse(_ message: String) -> ConfigurationError {
            ConfigurationError(variable: variable, message: message)
        }
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maxBytes, bytes.allSatisfy(ASCII.isVisible) else {
            throw refuse(
                "is not a URL (blanks, control or non-ASCII characters, or longer than \(Self.maxBytes) bytes)")
        }
        let scheme: String
        if Self.hasPrefix(bytes, "https://") {
            scheme = "https"
        } else if Self.hasPrefix(bytes, "http://") {
            scheme = "http"
        } else {
            throw refuse("is not an http:// or https:// URL")
        }
        let rest = bytes[(scheme.utf8.count + 3)...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let pathEnd =
            rest[authorityEnd...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        guard allowingQueryAndFragment || pathEnd == rest.endIndex else {
            throw refuse("may not carry a query or a fragment")
        }
        guard !authority.contains(UInt8(ascii: "@")) else { throw refuse("may not carry user information") }

        var hostBytes = authority
        var portBytes: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw refuse("has a malformed IPv6 host")
            }
            hostBytes = authority[...close]
            let after = authority[(close + 1)...]
            if let colon = after.first {
                guard colon == UInt8(ascii: ":") else { throw refuse("has a malformed host") }
                portBytes = after.dropFirst()
            }
            guard
                hostBytes.dropFirst().dropLast().allSatisfy({
                    ASCII.hexDigitValue($0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
                }),
                hostBytes.count > 2
            else { throw refuse("has a malformed IPv6 host") }
        } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[..<colon]
            portBytes = authority[(colon + 1)...]
        }
        guard !hostBytes.isEmpty else { throw refuse("has no host") }
        let host = hostBytes.map(ASCII.lowercased)
        if host.first != UInt8(ascii: "[") {
            guard
                host.allSatisfy({
                    ASCII.isLower($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                })
            else {
                throw refuse("has a malformed host")
            }
        }
        var port: Int?
        if let portBytes {
            guard (1...5).contains(portBytes.count), portBytes.allSatisfy(ASCII.isDigit),
                let value = Int(String(decoding: portBytes, as: UTF8.self)), (1...65535).contains(value)
            else { throw refuse("has a malformed port (1-65535)") }
            port = value
        }
        self.scheme = scheme
        self.host = String(decoding: host, as: UTF8.self)
        self.port = port
        self.path = String(decoding: rest[authorityEnd..<pathEnd], as: UTF8.self)
    }

    /// The rule for a URL the service fetches keys or talks to a provider with (`APPLE_JWKS_URL`,
    /// `GOOGLE_JWKS_URL`, and next `APPLE_AUTH_URL`): https, or plain http to a loopback host
    /// only (the tests' stand-ins). A query and a fragment are allowed unless the caller appends
    /// paths (`APPLE_AUTH_URL`).
    package static func httpsOrLoopback(
        _ text: String, variable: String, allowingQueryAndFragment: Bool = true
    ) throws(ConfigurationError) -> HTTPURL {
        let url = try HTTPURL(text, variable: variable, allowingQueryAndFragment: allowingQueryAndFragment)
        guard url.isHTTPS || isLoopbackHost(url.host) else {
            throw ConfigurationError(
                variable: variable, message: "must be https (plain http is allowed only to a loopback host)")
        }
        return url
    }

    /// `localhost`, `[::1]` or a dotted-quad address in 127.0.0.0/8 (each part 1–3 digits,
    /// at most 255). Nothing that merely starts like one: `127.0.0.1.example.com` is a name.
    package static func isLoopbackHost(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(ASCII.isDigit),
                let value = Int(Substring(part)), value <= 255
            else { return false }
        }
        return parts[0].elementsEqual("127".utf8)
    }

    /// Case-insensitive ASCII prefix test over bytes.
    private static func hasPrefix(_ bytes: [UInt8], _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { p in zip(bytes, p).allSatisfy { ASCII.lowercased($0) == $1 } }
    }
}

import PlatformSupport

/// Where a service is reached. Built from AWS's own endpoint names or from an
/// `AWS_ENDPOINT_URL*` override (`scheme://host[:port][/base]`, nothing else).
package struct AWSEndpoint: Sendable, Equatable, CustomStringConvertible {
    var scheme: String
    /// Lowercase host name or IP literal (IPv6 in brackets), without the port.
    package var host: String
    package var port: Int?
    /// A path the endpoint lives under, "" or "/x/y" (no trailing slash).
    var basePath: String
    /// S3 only: bucket in the path (`/bucket/key`) rather than in the host name.
    var pathStyle: Bool

    package init(scheme: String, host: String, port: Int? = nil, basePath: String = "", pathStyle: Bool = false) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.basePath = basePath
        self.pathStyle = pathStyle
    }

    /// Parses the endpoint URL read from `variable` (`PlatformSupport.HTTPURL`: http or https,
    /// no user info, query or fragment). Trailing slashes of the path are dropped.
    package init(url: String, variable: String, pathStyle: Bool) throws(ConfigurationError) {
        let parsed = try HTTPURL(url, variable: variable)
        var path = Substring(parsed.path)
        while path.utf8.last == UInt8(ascii: "/") { path = path.dropLast() }
        self.init(
            scheme: parsed.scheme, host: parsed.host, port: parsed.port, basePath: String(path), pathStyle: pathStyle)
    }

    /// The Host header: the port only when it is not the scheme's default (as SigV4 signs it).
    package var hostHeader: String {
        guard let port, port != (scheme == "https" ? 443 : 80) else { return host }
        return host + ":" + String(port)
    }

    /// `host[:port]` for the URL.
    var authority: String { port.map { host + ":" + String($0) } ?? host }

    package var description: String { scheme + "://" + authority + basePath + (pathStyle ? " (path-style)" : "") }
}

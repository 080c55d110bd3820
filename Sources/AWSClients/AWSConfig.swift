import PlatformSupport
import SigV4

/// Configuration that is missing or malformed at start-up. Names the variable, never its value.
public struct AWSConfigError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "AWS configuration: \(message)" }
}

/// The function's own credentials, as Lambda hands them over: the signer's credential type
/// (its `description` and reflection show the key id only), read from the standard variables.
public typealias AWSCredentials = SigningCredentials

extension SigningCredentials {
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` (both required) and `AWS_SESSION_TOKEN`
    /// (optional; empty means none).
    public static func fromEnvironment() throws(AWSConfigError) -> AWSCredentials {
        try from(environment: Environment.nonEmpty)
    }

    /// The same, from any lookup that answers nil for unset or empty (tests use a dictionary).
    static func from(environment env: (String) -> String?) throws(AWSConfigError) -> AWSCredentials {
        guard let id = env("AWS_ACCESS_KEY_ID") else { throw AWSConfigError("AWS_ACCESS_KEY_ID is not set") }
        guard let secret = env("AWS_SECRET_ACCESS_KEY") else { throw AWSConfigError("AWS_SECRET_ACCESS_KEY is not set") }
        return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"))
    }
}

/// Where a service is reached. Built from AWS's own endpoint names or from an
/// `AWS_ENDPOINT_URL*` override (`scheme://host[:port][/base]`, nothing else).
public struct AWSEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var scheme: String
    /// Lowercase host name or IP literal (IPv6 in brackets), without the port.
    public var host: String
    public var port: Int?
    /// A path the endpoint lives under, "" or "/x/y" (no trailing slash).
    public var basePath: String
    /// S3 only: bucket in the path (`/bucket/key`) rather than in the host name.
    public var pathStyle: Bool

    public init(scheme: String, host: String, port: Int? = nil, basePath: String = "", pathStyle: Bool = false) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.basePath = basePath
        self.pathStyle = pathStyle
    }

    /// Parses an endpoint URL. Only http and https; no user info, query or fragment.
    public init(url: String, pathStyle: Bool) throws(AWSConfigError) {
        let lower = url.lowercased()
        let scheme: String
        if lower.hasPrefix("https://") { scheme = "https" } else if lower.hasPrefix("http://") { scheme = "http" } else {
            throw AWSConfigError("endpoint URL must start with http:// or https://")
        }
        var rest = Substring(url.dropFirst(scheme.count + 3))
        guard !rest.contains("?"), !rest.contains("#"), !rest.contains("@"), !rest.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else {
            throw AWSConfigError("endpoint URL may not carry user info, a query, a fragment or spaces")
        }
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        while path.hasSuffix("/") { path.removeLast() }
        var host = String(rest).lowercased()
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw AWSConfigError("endpoint URL has a malformed IPv6 host") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (1...65535).contains(p) else { throw AWSConfigError("endpoint URL has a bad port") }
                port = p
            } else if !after.isEmpty { throw AWSConfigError("endpoint URL has a malformed host") }
            host = String(host[...close])
        } else if let colon = host.firstIndex(of: ":") {
            guard let p = Int(host[host.index(after: colon)...]), (1...65535).contains(p) else { throw AWSConfigError("endpoint URL has a bad port") }
            port = p
            host = String(host[..<colon])
        }
        guard !host.isEmpty, host.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 91 || $0 == 93 || $0 == 58 }) else {
            throw AWSConfigError("endpoint URL has a malformed host")
        }
        self.init(scheme: scheme, host: host, port: port, basePath: path, pathStyle: pathStyle)
    }

    /// The Host header: the port only when it is not the scheme's default (as SigV4 signs it).
    public var hostHeader: String {
        guard let port, port != (scheme == "https" ? 443 : 80) else { return host }
        return host + ":" + String(port)
    }

    /// `host[:port]` for the URL.
    var authority: String { port.map { host + ":" + String($0) } ?? host }

    public var description: String { scheme + "://" + authority + basePath + (pathStyle ? " (path-style)" : "") }
}

/// Region, credentials and endpoints, read once at start-up.
public struct AWSConfig: Sendable {
    public var region: String
    public var credentials: AWSCredentials
    public var s3Endpoint: AWSEndpoint
    public var stsEndpoint: AWSEndpoint

    public init(region: String, credentials: AWSCredentials, s3Endpoint: AWSEndpoint? = nil, stsEndpoint: AWSEndpoint? = nil) {
        self.region = region
        self.credentials = credentials
        self.s3Endpoint = s3Endpoint ?? AWSConfig.defaultS3Endpoint(region: region)
        self.stsEndpoint = stsEndpoint ?? AWSConfig.defaultSTSEndpoint(region: region)
    }

    /// `AWS_REGION` (else `AWS_DEFAULT_REGION`), the credentials, and the endpoints: a
    /// service-specific `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL_STS` wins over the global
    /// `AWS_ENDPOINT_URL`, as in every AWS SDK; `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true` ignores
    /// both. S3 is addressed path-style whenever an endpoint is configured.
    public static func fromEnvironment() throws(AWSConfigError) -> AWSConfig {
        try from(environment: Environment.nonEmpty)
    }

    /// The same, from any lookup that answers nil for unset or empty (tests use a dictionary).
    package static func from(environment env: (String) -> String?) throws(AWSConfigError) -> AWSConfig {
        guard let region = env("AWS_REGION") ?? env("AWS_DEFAULT_REGION") else {
            throw AWSConfigError("AWS_REGION is not set")
        }
        guard isValidRegion(region) else { throw AWSConfigError("AWS_REGION is not a region name") }
        let credentials = try AWSCredentials.from(environment: env)
        let ignore = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercased() == "true"
        let global = ignore ? nil : env("AWS_ENDPOINT_URL")
        var s3: AWSEndpoint?
        var sts: AWSEndpoint?
        if let url = ignore ? nil : (env("AWS_ENDPOINT_URL_S3") ?? global) { s3 = try AWSEndpoint(url: url, pathStyle: true) }
        if let url = ignore ? nil : (env("AWS_ENDPOINT_URL_STS") ?? global) { sts = try AWSEndpoint(url: url, pathStyle: false) }
        return AWSConfig(region: region, credentials: credentials, s3Endpoint: s3, stsEndpoint: sts)
    }

    /// `s3.{region}.amazonaws.com` (`.amazonaws.com.cn` in China), virtual-hosted.
    public static func defaultS3Endpoint(region: String) -> AWSEndpoint {
        AWSEndpoint(scheme: "https", host: "s3." + region + "." + dnsSuffix(region), pathStyle: false)
    }

    /// The regional STS endpoint, `sts.{region}.amazonaws.com`.
    public static func defaultSTSEndpoint(region: String) -> AWSEndpoint {
        AWSEndpoint(scheme: "https", host: "sts." + region + "." + dnsSuffix(region))
    }

    static func dnsSuffix(_ region: String) -> String { region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com" }

    static func isValidRegion(_ region: String) -> Bool {
        !region.isEmpty && region.count <= 32 && region.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}

import PlatformSupport
import SigV4

/// The function's own credentials, as Lambda hands them over: the signer's credential type
/// (its `description` and reflection show the key id only), read from the standard variables.
package typealias AWSCredentials = SigningCredentials

extension SigningCredentials {
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` (both required) and `AWS_SESSION_TOKEN`
    /// (optional; empty means none).
    static func fromEnvironment() throws(ConfigurationError) -> AWSCredentials {
        try from(environment: Environment.nonEmpty)
    }

    /// The same, from any lookup that answers nil for unset or empty (tests use a dictionary).
    static func from(environment env: (String) -> String?) throws(ConfigurationError) -> AWSCredentials {
        guard let id = env("AWS_ACCESS_KEY_ID") else {
            throw ConfigurationError(variable: "AWS_ACCESS_KEY_ID", message: "is not set")
        }
        guard let secret = env("AWS_SECRET_ACCESS_KEY") else {
            throw ConfigurationError(variable: "AWS_SECRET_ACCESS_KEY", message: "is not set")
        }
        return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"))
    }
}

/// Region, credentials and endpoints, read once at start-up.
package struct AWSConfig: Sendable {
    package var region: String
    package var credentials: AWSCredentials
    package var s3Endpoint: AWSEndpoint
    package var stsEndpoint: AWSEndpoint
    package var ssmEndpoint: AWSEndpoint

    package init(
        region: String, credentials: AWSCredentials, s3Endpoint: AWSEndpoint? = nil, stsEndpoint: AWSEndpoint? = nil,
        ssmEndpoint: AWSEndpoint? = nil
    ) {
        self.region = region
        self.credentials = credentials
        self.s3Endpoint = s3Endpoint ?? AWSConfig.defaultS3Endpoint(region: region)
        self.stsEndpoint = stsEndpoint ?? AWSConfig.defaultEndpoint("sts", region: region)
        self.ssmEndpoint = ssmEndpoint ?? AWSConfig.defaultEndpoint("ssm", region: region)
    }

    /// `AWS_REGION` (else `AWS_DEFAULT_REGION`), the credentials, and the endpoints: a
    /// service-specific `AWS_ENDPOINT_URL_S3` / `_STS` / `_SSM` wins over the global
    /// `AWS_ENDPOINT_URL`, as in every AWS SDK; `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true` ignores
    /// both. S3 is addressed path-style whenever an endpoint is configured.
    package static func fromEnvironment() throws(ConfigurationError) -> AWSConfig {
        try from(environment: Environment.nonEmpty)
    }

    /// The same, from any lookup that answers nil for unset or empty (tests use a dictionary).
    package static func from(environment env: (String) -> String?) throws(ConfigurationError) -> AWSConfig {
        let regionVariable = env("AWS_REGION") != nil ? "AWS_REGION" : "AWS_DEFAULT_REGION"
        guard let region = env(regionVariable) else {
            throw ConfigurationError(variable: "AWS_REGION", message: "is not set")
        }
        guard isValidRegion(region) else {
            throw ConfigurationError(variable: regionVariable, message: "is not a region name")
        }
        let credentials = try AWSCredentials.from(environment: env)
        let ignore = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercasedASCII() == "true"
        // The service's own variable when set, else the global one; nil when neither is (or all are ignored).
        func endpoint(_ specific: String, pathStyle: Bool) throws(ConfigurationError) -> AWSEndpoint? {
            guard !ignore else { return nil }
            let variable = env(specific) != nil ? specific : "AWS_ENDPOINT_URL"
            guard let url = env(variable) else { return nil }
            return try AWSEndpoint(url: url, variable: variable, pathStyle: pathStyle)
        }
        let s3 = try endpoint("AWS_ENDPOINT_URL_S3", pathStyle: true)
        let sts = try endpoint("AWS_ENDPOINT_URL_STS", pathStyle: false)
        let ssm = try endpoint("AWS_ENDPOINT_URL_SSM", pathStyle: false)
        return AWSConfig(region: region, credentials: credentials, s3Endpoint: s3, stsEndpoint: sts, ssmEndpoint: ssm)
    }

    /// `s3.{region}.amazonaws.com` (`.amazonaws.com.cn` in China), virtual-hosted.
    static func defaultS3Endpoint(region: String) -> AWSEndpoint {
        AWSEndpoint(scheme: "https", host: "s3." + region + "." + dnsSuffix(region), pathStyle: false)
    }

    /// A service's regional endpoint, `{service}.{region}.amazonaws.com` (STS, SSM).
    static func defaultEndpoint(_ service: String, region: String) -> AWSEndpoint {
        AWSEndpoint(scheme: "https", host: service + "." + region + "." + dnsSuffix(region))
    }

    static func dnsSuffix(_ region: String) -> String { region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com" }

    static func isValidRegion(_ region: String) -> Bool {
        !region.isEmpty && region.utf8.count <= 32
            && region.utf8.allSatisfy { ASCII.isLower($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "-") }
    }
}

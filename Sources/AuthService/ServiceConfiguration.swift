import AWSClients
import AccountModel
import AccountStore
import PlatformSupport
import SignInWithApple
import TokenVerification

/// Everything the functions read from the environment (docs/API.md, "Configuration"), validated
/// once at start-up so that a bad deployment fails at init instead of on a user's sign-in.
package struct ServiceConfiguration: Sendable {
    package var aws: AWSConfig
    package var account: AccountSettings
    package var verifier: VerifierConfiguration
    /// Sign in with Apple token revocation at deletion; nil when off (no APPLE_TEAM_ID/APPLE_KEY_ID).
    package var appleRevocation: AppleRevocationSettings?
    /// App Store purchases; nil when off (no APPSTORE_BUNDLE_ID).
    package var purchases: PurchaseConfiguration?
    /// Where auth-signin's Apple return URL redirects (`APPLE_WEB_RETURN_TARGET`); nil when off.
    package var appleWebReturnTarget: AppleWebReturnTarget?
    /// The CloudWatch namespace of the invocation metrics (`METRICS_NAMESPACE`).
    package var metricsNamespace = "SigninBackend"

    /// From any lookup that answers nil for unset or empty (the process environment, or a
    /// dictionary in tests).
    package static func from(environment env: (String) -> String?) throws(ConfigurationError) -> ServiceConfiguration {
        func required(_ name: String) throws(ConfigurationError) -> String {
            guard let v = env(name) else { throw ConfigurationError(variable: name, message: "is required") }
            return v
        }
        func seconds(
            _ name: String, default value: Int64, range: ClosedRange<Int64>
        ) throws(ConfigurationError) -> Int64 {
            guard let text = env(name) else { return value }
            guard let v = Int64(text), range.contains(v) else {
                throw ConfigurationError(
                    variable: name,
                    message: "must be a whole number of seconds in \(range.lowerBound)...\(range.upperBound)")
            }
            return v
        }
        let bucket = try required("IDENTITY_BUCKET")
        guard S3Client.bucketProblem(bucket) == nil else {
            throw ConfigurationError(variable: "IDENTITY_BUCKET", message: "is not a valid S3 bucket name")
        }
        let role = try required("USER_ROLE_ARN")
        guard isRoleARN(role) else {
            throw ConfigurationError(
                variable: "USER_ROLE_ARN", message: "must look like arn:aws:iam::123456789012:role/NAME")
        }
        // Lambda's own credentials are a role session, and STS caps chained sessions at one hour.
        let duration = try seconds("CREDENTIALS_DURATION_SECONDS", default: 3600, range: 900...3600)
        let ttl = try seconds("REFRESH_TOKEN_TTL_SECONDS", default: 2_592_000, range: 300...31_536_000)
        let recent = try seconds("RECENT_AUTH_SECONDS", default: 600, range: 0...86_400)
        let grace = try seconds("REFRESH_REUSE_GRACE_SECONDS", default: 30, range: 0...300)
        let aws = try AWSConfig.from(environment: env)
        let verifier = try VerifierConfiguration.from(environment: env)
        let settings = AccountSettings(
            bucket: bucket, region: aws.region, userRoleARN: role, credentialsDurationSeconds: Int(duration),
            refreshTokenTTLSeconds: ttl, recentAuthSeconds: recent, refreshReuseGraceSeconds: grace)
        let appleRevocation = try AppleRevocationSettings.from(environment: env)
        let purchases = try PurchaseConfiguration.from(environment: env)
        var configuration = ServiceConfiguration(
            aws: aws, account: settings, verifier: verifier, appleRevocation: appleRevocation, purchases: purchases,
            appleWebReturnTarget: try AppleWebReturnTarget.from(environment: env))
        if let namespace = env("METRICS_NAMESPACE") {
            // CloudWatch's rule for a namespace; it may not start with "AWS/".
            guard namespace.utf8.count <= 255, !namespace.hasPrefix("AWS/"),
                namespace.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || Array("._-/#:".utf8).contains($0) })
            else {
                throw ConfigurationError(
                    variable: "METRICS_NAMESPACE", message: "must be 1-255 of [A-Za-z0-9._-/#:], not starting AWS/")
            }
            configuration.metricsNamespace = namespace
        }
        return configuration
    }

    /// `arn:<partition>:iam::<12 digits>:role/<name>`, checked byte by byte.
    package static func isRoleARN(_ s: String) -> Bool {
        let parts = s.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[1].hasPrefix("aws"), parts[2] == "iam", parts[3].isEmpty,
            parts[4].utf8.count == 12, parts[4].utf8.allSatisfy(ASCII.isDigit), parts[5].hasPrefix("role/"),
            parts[5].count > 5
        else { return false }
        return true
    }
}

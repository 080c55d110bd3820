import AccountDomain
import AWSClients
import LambdaRuntime
import PlatformSupport
import TokenVerification

/// A configuration the function cannot start with: reported to `/runtime/init/error`.
public struct ConfigurationFailure: LambdaFunctionError {
    public let errorMessage: String
    public var errorType: String { "Runtime.InvalidConfiguration" }
    public init(_ message: String) { errorMessage = message }
}

/// Everything the functions read from the environment (CONTRACT.md, "Configuration"), validated
/// once at start-up so a bad deployment fails at init instead of on a user's sign-in.
public struct ServiceConfiguration: Sendable {
    public var aws: AWSConfig
    public var account: AccountSettings
    public var verifier: VerifierConfiguration

    public static func fromEnvironment() throws(ConfigurationFailure) -> ServiceConfiguration {
        let bucket = try required("IDENTITY_BUCKET")
        guard S3Client.bucketProblem(bucket) == nil else { throw ConfigurationFailure("IDENTITY_BUCKET is not a valid S3 bucket name") }
        let role = try required("USER_ROLE_ARN")
        guard isRoleARN(role) else { throw ConfigurationFailure("USER_ROLE_ARN must look like arn:aws:iam::123456789012:role/NAME") }
        // Lambda's own credentials are a role session, and STS caps chained sessions at one hour.
        let duration = try integer("CREDENTIALS_DURATION_SECONDS", default: 3600, range: 900...3600)
        let ttl = try integer("REFRESH_TOKEN_TTL_SECONDS", default: 2_592_000, range: 300...31_536_000)
        let recent = try integer("RECENT_AUTH_SECONDS", default: 600, range: 0...86_400)
        let grace = try integer("REFRESH_REUSE_GRACE_SECONDS", default: 30, range: 0...300)
        let aws: AWSConfig
        do throws(ConfigurationError) { aws = try AWSConfig.fromEnvironment() } catch { throw ConfigurationFailure(String(describing: error)) }
        let verifier: VerifierConfiguration
        do throws(ConfigurationError) { verifier = try VerifierConfiguration.fromEnvironment() } catch {
            throw ConfigurationFailure(String(describing: error))
        }
        let settings = AccountSettings(bucket: bucket, region: aws.region, userRoleARN: role, credentialsDurationSeconds: Int(duration),
                                       refreshTokenTTLSeconds: ttl, recentAuthSeconds: recent, refreshReuseGraceSeconds: grace)
        return ServiceConfiguration(aws: aws, account: settings, verifier: verifier)
    }

    static func required(_ name: String) throws(ConfigurationFailure) -> String {
        guard let v = Environment.nonEmpty(name) else { throw ConfigurationFailure("\(name) is required") }
        return v
    }

    static func integer(_ name: String, default value: Int64, range: ClosedRange<Int64>) throws(ConfigurationFailure) -> Int64 {
        guard let text = Environment.nonEmpty(name) else { return value }
        guard let v = Int64(text), range.contains(v) else {
            throw ConfigurationFailure("\(name) must be a whole number of seconds in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    static func isRoleARN(_ s: String) -> Bool {
        let parts = s.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[1].hasPrefix("aws"), parts[2] == "iam", parts[3].isEmpty,
              parts[4].utf8.count == 12, parts[4].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), parts[5].hasPrefix("role/"), parts[5].count > 5
        else { return false }
        return true
    }
}

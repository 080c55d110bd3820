import AccountDomain
import AWSClients
import CurlHTTP
import LambdaRuntime
import PlatformSupport
import TokenVerification

/// What one warm process keeps between invocations: one HTTP client (one curl multi handle, so
/// connections to S3, STS and the JWKS hosts stay open), the token verifier with its key cache,
/// and the account service.
public final class ServiceRuntime {
    public let configuration: ServiceConfiguration
    public let http: HTTPClient
    public let verifier: TokenVerifier
    public let accounts: AccountService

    public init(configuration: ServiceConfiguration, http: HTTPClient) {
        self.configuration = configuration
        self.http = http
        verifier = TokenVerifier(configuration: configuration.verifier, http: http)
        let backend = AWSBatch(s3: S3Client(http: http, config: configuration.aws, bucket: configuration.account.bucket),
                               sts: STSClient(http: http, config: configuration.aws))
        accounts = AccountService(backend: backend, settings: configuration.account)
    }

    /// Reads and validates the configuration; a failure becomes an init error. When
    /// `prefetchKeys` is set (functions that verify ID tokens), both providers' JWKS are fetched
    /// now, concurrently, so the first sign-in does not wait for them; a failed fetch is retried
    /// on first use.
    public static func start(_ context: InitContext, prefetchKeys: Bool) throws -> ServiceRuntime {
        let configuration = try ServiceConfiguration.fromEnvironment()
        let runtime: ServiceRuntime
        do throws(HTTPError) {
            runtime = ServiceRuntime(configuration: configuration, http: try HTTPClient())
        } catch {
            throw ConfigurationFailure("libcurl is not usable: \(error.message)")
        }
        if prefetchKeys { runtime.verifier.prefetchKeys(deadline: .after(milliseconds: 3_000)) }
        context.logger.info("init", [("function", .string(context.functionName)), ("region", .string(configuration.aws.region)),
                                     ("libcurl", .string(CurlLibrary.version ?? "?"))])
        return runtime
    }

    /// The invocation's deadline less a margin for answering; S3/STS/JWKS requests and their
    /// retries stop in time for the envelope to go out.
    static func deadline(for context: LambdaContext) -> Deadline {
        Deadline(epochMilliseconds: context.deadlineMilliseconds - 300)
    }
}

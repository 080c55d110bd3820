import AWSClients
import AccountDomain
import CurlHTTP
import PlatformSupport
import TokenVerification

/// What one warm process keeps between invocations and every action uses: the configuration, one
/// HTTP client (one curl multi handle, so connections to S3, STS and the JWKS hosts stay open),
/// the token verifier with its key cache, and the account service.
final class ServiceDependencies {
    let configuration: ServiceConfiguration
    let http: HTTPClient
    let verifier: TokenVerifier
    let accounts: AccountService
    /// nil when Apple revocation is not configured.
    let appleRevocation: AppleTokenRevocation? = nil

    init(configuration: ServiceConfiguration, http: HTTPClient) {
        self.configuration = configuration
        self.http = http
        verifier = TokenVerifier(configuration: configuration.verifier, http: http)
        let backend = AWSBatch(
            s3: S3Client(http: http, config: configuration.aws, bucket: configuration.account.bucket),
            sts: STSClient(http: http, config: configuration.aws))
        accounts = AccountService(backend: backend, settings: configuration.account)
    }
}

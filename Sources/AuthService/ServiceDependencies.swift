import AWSClients
import AccountDomain
import AppStoreSignedData
import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import SignInWithApple
import TokenVerification

/// What one warm process keeps between invocations and every action uses: the configuration, one
/// HTTP client (one curl multi handle, so connections to S3, STS and the JWKS hosts stay open),
/// the token verifier with its key cache, and the account service.
final class ServiceDependencies {
    let configuration: ServiceConfiguration
    let http: HTTPClient
    let verifier: TokenVerifier
    let accounts: AccountService
    /// Sign in with Apple revocation; nil when not configured, or for a function that never
    /// deletes accounts.
    let appleRevocation: AppleTokenRevocation?
    /// App Store signed-data verification (one per process: it caches verified chains); nil when
    /// purchases are off.
    let storeVerifier: AppStoreSignedDataVerifier?

    /// - Parameter revokesAppleTokens: whether this function deletes accounts (auth-link): only
    ///   then is the Sign in with Apple key loaded, from the environment or, read once now, from
    ///   SSM. A key that cannot be read or is not a P-256 key is a configuration error.
    init(
        configuration: ServiceConfiguration, http: HTTPClient, revokesAppleTokens: Bool = false
    ) throws(ConfigurationError) {
        self.configuration = configuration
        self.http = http
        verifier = TokenVerifier(configuration: configuration.verifier, http: http)
        let backend = AWSBatch(
            s3: S3Client(http: http, config: configuration.aws, bucket: configuration.account.bucket),
            sts: STSClient(http: http, config: configuration.aws))
        accounts = AccountService(backend: backend, settings: configuration.account)
        if let purchases = configuration.purchases {
            do throws(X509ChainError) {
                storeVerifier = try AppStoreSignedDataVerifier(configuration: purchases.verifier)
            } catch {
                throw ConfigurationError(variable: "APPSTORE_ROOT_CERTS", message: "cannot be used (\(error))")
            }
        } else {
            storeVerifier = nil
        }
        guard revokesAppleTokens, let settings = configuration.appleRevocation else {
            appleRevocation = nil
            return
        }
        let pem: String
        switch settings.keySource {
        case .pem(let text): pem = text
        case .parameter(let name):
            do throws(AWSError) {
                pem = try SSMClient(http: http, config: configuration.aws)
                    .parameter(named: name, deadline: .after(milliseconds: ServiceDependencies.keyReadMilliseconds))
            } catch {
                throw ConfigurationError(
                    variable: settings.keySource.variable,
                    message: "names a parameter that could not be read (\(error.kind))")
            }
        }
        let client = try AppleTokenClient(settings: settings, privateKeyPEM: pem, http: http)
        appleRevocation = AppleTokenRevocation(client: client, verifier: verifier)
    }

    /// The SSM read at start-up: Lambda's init phase has 10 s in all.
    static let keyReadMilliseconds: Int64 = 4_000
}

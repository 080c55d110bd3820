import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import AppStoreSignedData
import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import SignInWithApple
import TokenVerification

/// What one warm process keeps between invocations and every action uses: the configuration, one
/// HTTP client (one curl multi handle, so connections to S3, STS and the JWKS hosts stay open),
/// the token verifier with its key cache, the account store and the account flows over it (each
/// made on first use, so a function builds only the flows its actions run).
package final class ServiceDependencies {
    package let configuration: ServiceConfiguration
    package let http: HTTPClient
    package let verifier: TokenVerifier
    package let store: AccountStore
    package private(set) lazy var sessions = SessionFlow(store: store)
    package private(set) lazy var suspensions = SuspensionFlow(store: store)
    package private(set) lazy var links = LinkFlow(store: store, sessions: sessions, suspensions: suspensions)
    package private(set) lazy var signIn = SignInFlow(
        store: store, sessions: sessions, links: links, suspensions: suspensions)
    package private(set) lazy var deletion = DeletionFlow(store: store, sessions: sessions, links: links)
    package private(set) lazy var purchases = PurchaseFlow(store: store, sessions: sessions)
    package private(set) lazy var appleEvents = AppleEventFlow(
        store: store, sessions: sessions, links: links, deletion: deletion)
    package private(set) lazy var googleEvents = GoogleEventFlow(store: store, suspensions: suspensions)
    /// Sign in with Apple revocation; nil when not configured, for a function that never deletes
    /// accounts, or while the key's SSM parameter is still to be read (`pendingAppleKey`).
    package private(set) var appleRevocation: AppleTokenRevocation?
    /// The key's SSM parameter, when its read at init failed transiently (throttled, unavailable):
    /// an outage of SSM at a cold start must not take the function down (every action would answer
    /// a Runtime API error instead of an envelope), so the first deletion that needs the key reads
    /// it again (`appleRevocation(deadline:)`).
    private var pendingAppleKey: (settings: AppleRevocationSettings, name: String)?
    /// App Store signed-data verification (one per process: it caches verified chains); nil when
    /// purchases are off.
    package let storeVerifier: AppStoreSignedDataVerifier?
    /// The App Store Server API for claims; nil when not configured (its key is read on first use).
    package private(set) lazy var storeStatus: AppStoreStatusLookup? = configuration.purchases?.api.flatMap { api in
        storeVerifier.map { AppStoreStatusLookup(settings: api, http: http, aws: configuration.aws, verifier: $0) }
    }

    /// - Parameter revokesAppleTokens: whether this function deletes accounts (auth-link): only
    ///   then is the Sign in with Apple key loaded, from the environment or, read once now, from
    ///   SSM. A key that is missing, not allowed or not a P-256 key is a configuration error; a
    ///   read that failed transiently is tried again by the first deletion that needs it.
    package init(
        configuration: ServiceConfiguration, http: HTTPClient, revokesAppleTokens: Bool = false
    ) throws(ConfigurationError) {
        self.configuration = configuration
        self.http = http
        verifier = TokenVerifier(configuration: configuration.verifier, http: http)
        let backend = AWSBatch(
            s3: S3Client(http: http, config: configuration.aws, bucket: configuration.account.bucket),
            sts: STSClient(http: http, config: configuration.aws))
        store = AccountStore(backend: backend, settings: configuration.account)
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
                if error.isRetryable {
                    appleRevocation = nil
                    pendingAppleKey = (settings, name)
                    return
                }
                throw ConfigurationError(
                    variable: settings.keySource.variable,
                    message: "names a parameter that could not be read (\(error.kind))")
            }
        }
        let client = try AppleTokenClient(settings: settings, privateKeyPEM: pem, http: http)
        appleRevocation = AppleTokenRevocation(client: client, verifier: verifier)
    }

    /// The SSM read at start-up: Lambda's init phase has 10 s in all.
    package static let keyReadMilliseconds: Int64 = 4_000

    /// Whether deletions revoke Apple tokens (the key loaded, or its read still pending).
    package var revokesAppleTokens: Bool { appleRevocation != nil || pendingAppleKey != nil }

    /// Revocation, reading the key from SSM first when the read at init failed transiently (within
    /// `keyReadMilliseconds` and `deadline`, keeping 2 s of it for Apple); nil when the key is still
    /// unavailable, and revocation then answers false, as for any failure at Apple.
    package func appleRevocation(deadline: Deadline) -> AppleTokenRevocation? {
        if let appleRevocation { return appleRevocation }
        guard let (settings, name) = pendingAppleKey else { return nil }
        let budget = min(ServiceDependencies.keyReadMilliseconds, deadline.remainingMilliseconds - 2_000)
        guard budget > 0,
            let pem = try? SSMClient(http: http, config: configuration.aws)
                .parameter(named: name, deadline: .after(milliseconds: budget)),
            let client = try? AppleTokenClient(settings: settings, privateKeyPEM: pem, http: http)
        else { return nil }
        pendingAppleKey = nil
        appleRevocation = AppleTokenRevocation(client: client, verifier: verifier)
        return appleRevocation
    }
}

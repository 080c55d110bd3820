import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountOperator
import AccountPurchases
import AccountSessions
import AccountStore
import AccountSuspensions
import AccountTransfer
import CurlHTTP
import PlatformSupport

/// The operator's connection: AWS configuration resolved as the AWS CLI does, the account store
/// over it (counting its requests) with the operator's flows, and the operator's identity for the
/// audit line.
final class OperatorContext {
    let store: AccountStore
    /// The operator's actions on one account (find, show, disable, sessions, delete).
    let operatorFlow: OperatorFlow
    /// `authctl check [--repair]`.
    let storeCheck: StoreCheck
    /// `authctl apple-transfer prepare | complete`.
    let appleTransfer: AppleTransferFlow
    let backend: CountingBackend
    let sts: STSClient
    let bucket: String
    let region: String
    let json: Bool
    /// The connection the account service uses, shared by the commands that also talk to Apple.
    let http: HTTPClient
    let config: AWSConfig

    /// Where the credentials and region came from (`whoami`).
    let chain: CLIConfigChain

    init(_ options: ConnectionOptions) throws(ConfigurationError) {
        let env: (String) -> String? = Environment.nonEmpty
        chain = try CLIConfigChain(
            profile: options.profile, region: options.region, environment: env,
            files: SharedConfigFiles.load(environment: env))
        let variables = chain.variables
        let config = try AWSConfig.from { variables[$0] }
        guard let bucket = options.bucket ?? env("IDENTITY_BUCKET") else {
            throw ConfigurationError(variable: "--bucket", message: "is not given and IDENTITY_BUCKET is not set")
        }
        let http: HTTPClient
        do throws(HTTPError) { http = try HTTPClient() } catch {
            throw ConfigurationError(variable: "libcurl", message: "could not be loaded: \(error)")
        }
        sts = STSClient(http: http, config: config)
        backend = CountingBackend(AWSBatch(s3: S3Client(http: http, config: config, bucket: bucket), sts: sts))
        let settings = AccountSettings(
            bucket: bucket, region: config.region, userRoleARN: "arn:aws:iam::000000000000:role/authctl-issues-none",
            credentialsDurationSeconds: options.credentialsDuration)
        store = AccountStore(backend: backend, settings: settings)
        let sessions = SessionFlow(store: store), suspensions = SuspensionFlow(store: store)
        let links = LinkFlow(store: store, sessions: sessions, suspensions: suspensions)
        let deletion = DeletionFlow(store: store, sessions: sessions, links: links)
        operatorFlow = OperatorFlow(store: store, sessions: sessions, suspensions: suspensions, deletion: deletion)
        storeCheck = StoreCheck(
            store: store, links: links, suspensions: suspensions, deletion: deletion,
            purchases: PurchaseFlow(store: store, sessions: sessions))
        appleTransfer = AppleTransferFlow(store: store, links: links)
        self.http = http
        self.config = config
        self.bucket = bucket
        region = config.region
        json = options.json
    }

    /// STS GetCallerIdentity: asked before any change, so every audit line names the operator.
    func operatorIdentity() throws(AWSError) -> CallerIdentity {
        try sts.callerIdentity(deadline: .after(milliseconds: 15_000))
    }
}

/// The account service's backend, counting requests (check's summary and the bench print them).
final class CountingBackend: AccountBackend {
    let inner: AWSBatch
    private(set) var requests = 0

    init(_ inner: AWSBatch) { self.inner = inner }

    func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>] {
        requests += calls.count
        return inner.run(calls, deadline: deadline)
    }
}

import AWSClients
import PlatformSupport
import StrictJSON
import TokenVerification

/// The account flows of docs/API.md over a batch backend, one file per flow:
/// `+SignIn` (sign-in and sign-up), `+Sessions` (refresh and session management), `+Links`
/// (link and unlink), `+ConditionalUpdate` (the read-modify-write engine and identity files).
///
/// Ordering, so that a crash, a lost answer or a race between two writes never leaves an identity
/// that signs in without being listed, or one listed that does not sign in:
/// - sign-up: the identity file (`If-None-Match`) is the commit point; markers, profile, providers
///   and the session follow in one round, and a later sign-in completes whatever is missing with
///   the same UUID and link id.
/// - link: claim the provider's slot in providers.json (a pending entry, `If-Match`), then create
///   the identity file with the link id in its metadata (the commit point), then activate the
///   entry. A sign-in with that identity completes a claim whose file exists; a claim whose file
///   never came is abandoned after `ProvidersDocument.pendingLifetimeMs`.
/// - unlink: providers.json first: the entry moves to `retired` in the same conditional write
///   that checks it is not the last provider (the commit point; every session of that link stops
///   working at once), then that exact version of the identity file is deleted. A retry, or any
///   sign-in that meets the leftover file, finishes the job.
/// - refresh: the token is checked against its record, then STS is asked for credentials, and
///   only then is the rotated record written (`If-Match`), so a refresh that fails has spent
///   nothing; a lost answer to that write is recognised by re-reading it.
/// - every update of an existing document is `If-Match` on the ETag read; a lost race re-reads
///   and re-applies, and every closure re-checks its rules against what it re-read, recognising
///   its own earlier write (an answer lost, the transport's retry then refused with 412).
package final class AccountService {
    /// Attempts at a conditional update before answering CONFLICT. Each lost race means another
    /// writer succeeded, so a handful settles all but pathological contention.
    static let maxConditionalAttempts = 8
    /// `lastUsed` is rewritten only when older than this, so repeated sign-ins cost no write.
    static let lastUsedGranularityMs: Int64 = 3_600_000
    /// Sessions read per round by `list` and `signoutOthers`.
    static let sessionsPerRound = 32

    let backend: AccountBackend
    let settings: AccountSettings
    let environment: AccountEnvironment

    package convenience init(backend: AccountBackend, settings: AccountSettings) {
        self.init(backend: backend, settings: settings, environment: .live)
    }

    init(backend: AccountBackend, settings: AccountSettings, environment: AccountEnvironment) {
        self.backend = backend
        self.settings = settings
        self.environment = environment
    }

    /// The credentials request for `uuid`: the user role with the per-user session policy.
    func assumeRoleRequest(_ uuid: String) throws(AccountError) -> AssumeRoleRequest {
        let policy: String
        do throws(CredentialsPolicy.PolicyError) {
            policy = try CredentialsPolicy.document(bucket: settings.bucket, uuid: uuid, region: settings.region)
        } catch {
            throw .internalError("session policy: \(error)")
        }
        return AssumeRoleRequest(
            roleARN: settings.userRoleARN, sessionName: "user-\(uuid)",
            durationSeconds: settings.credentialsDurationSeconds,
            policy: policy, sourceIdentity: nil, tags: [])
    }

    /// A new refresh token (its secret from the environment's CSPRNG).
    func newToken(_ uuid: String, sessionID: String) -> RefreshToken {
        RefreshToken.issue(
            serviceUserID: uuid, sessionID: sessionID, secret: environment.randomBytes(RefreshToken.secretBytes))
    }

    func issued(_ credentials: TemporaryCredentials, _ token: RefreshToken, _ record: SessionRecord) -> IssuedSession {
        IssuedSession(
            credentials: credentials, refreshToken: token, refreshTokenExpiresAtMs: record.expiresAtMs,
            storagePrefix: AccountKeys.userPrefix(token.serviceUserID))
    }

    func jsonPut(_ key: String, _ value: JSONValue, _ condition: S3PutCondition) -> S3Put {
        S3Put(key: key, body: value.serialized(), contentType: "application/json", condition: condition)
    }

    /// Session records carry a tag that the template's lifecycle rule expires them by.
    func sessionPut(_ record: SessionRecord, _ condition: S3PutCondition) -> S3Put {
        S3Put(
            key: AccountKeys.session(record.serviceUserID, record.sessionID), body: record.json.serialized(),
            contentType: "application/json",
            condition: condition, tags: [AccountService.sessionTag])
    }

    /// `record=session`: the template's lifecycle rule deletes records with this tag some time
    /// after their last write (a session is rewritten at every refresh, so only dead ones age).
    static let sessionTag = ("record", "session")

    func marker(_ key: String, _ condition: S3PutCondition = .none) -> S3Put {
        S3Put(key: key, body: [], contentType: "application/x-directory", condition: condition)
    }

    /// Display name: the event's fullName, else the token's name, else the email's local part.
    func displayName(_ identity: VerifiedIdentity, _ fullName: String?) -> String {
        if let n = fullName?.trimmingASCIISpaces(), !n.isEmpty { return n }
        if let n = identity.name?.trimmingASCIISpaces(), !n.isEmpty { return n }
        if let e = identity.email, let at = e.firstIndex(of: "@"), at > e.startIndex { return String(e[..<at]) }
        return "User"
    }
}

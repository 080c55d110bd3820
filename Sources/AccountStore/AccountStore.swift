import AWSClients
import AccountModel
import PlatformSupport
import StrictJSON

/// The account store: the batch backend, the settings and the environment every flow runs with,
/// and the primitives over S3 that no flow owns (the conditional-update engine, identity files,
/// reading an account and its documents). It has no flows: each flow (`SessionFlow`, `LinkFlow`,
/// …) is a type of its own module over this one (docs/decisions/account-modules.md).
///
/// Ordering rules every flow keeps: every update of an existing document is `If-Match` on the
/// ETag read; a lost race re-reads and re-applies, and every closure re-checks its rules against
/// what it re-read, recognising its own earlier write (an answer lost, the transport's retry then
/// refused with 412). Each flow's own ordering is documented on its type.
package final class AccountStore {
    /// Attempts at a conditional update before answering CONFLICT. Each lost race means another
    /// writer succeeded, so a handful settles all but pathological contention.
    package static let maxConditionalAttempts = 8
    /// Documents read per round by `list`, `signoutOthers` and the reads of many keys.
    package static let sessionsPerRound = 32

    package let backend: AccountBackend
    package let settings: AccountSettings
    package let environment: AccountEnvironment

    package convenience init(backend: AccountBackend, settings: AccountSettings) {
        self.init(backend: backend, settings: settings, environment: .live)
    }

    package init(backend: AccountBackend, settings: AccountSettings, environment: AccountEnvironment) {
        self.backend = backend
        self.settings = settings
        self.environment = environment
    }

    package func jsonPut(_ key: String, _ value: JSONValue, _ condition: S3PutCondition) -> S3Put {
        S3Put(key: key, body: value.serialized(), contentType: "application/json", condition: condition)
    }

    /// Session records carry a tag that the template's lifecycle rule expires them by.
    package func sessionPut(_ record: SessionRecord, _ condition: S3PutCondition) -> S3Put {
        S3Put(
            key: AccountKeys.session(record.serviceUserID, record.sessionID), body: record.json.serialized(),
            contentType: "application/json",
            condition: condition, tags: [AccountStore.sessionTag])
    }

    /// `record=session`: the template's lifecycle rule deletes records with this tag some time
    /// after their last write (a session is rewritten at every refresh, so only dead ones age).
    package static let sessionTag = ("record", "session")

    package func marker(_ key: String, _ condition: S3PutCondition = .none) -> S3Put {
        S3Put(key: key, body: [], contentType: "application/x-directory", condition: condition)
    }

}

import AccountLinks
import AccountSessions
import AccountStore
import AccountSuspensions

/// Sign-in and sign-up: the identity file decides the account (its creation with `If-None-Match`
/// is a sign-up's commit point; markers, profile, providers and the session follow in one round,
/// and a later sign-in completes whatever is missing with the same UUID and link id), a pending
/// link or a re-key it meets is finished, and the suspension and the disable are enforced in the
/// round that commits the session. The top of the app's flows: nothing depends on it.
package struct SignInFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let links: LinkFlow
    package let suspensions: SuspensionFlow

    package init(store: AccountStore, sessions: SessionFlow, links: LinkFlow, suspensions: SuspensionFlow) {
        self.store = store
        self.sessions = sessions
        self.links = links
        self.suspensions = suspensions
    }

    /// `lastUsed` is rewritten only when older than this, so repeated sign-ins cost no write.
    package static let lastUsedGranularityMs: Int64 = 3_600_000
}

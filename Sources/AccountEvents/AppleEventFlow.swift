import AccountDeletion
import AccountLinks
import AccountSessions
import AccountStore
import AccountSuspensions

/// Sign in with Apple's server-to-server notifications (`email-disabled`/`enabled`,
/// `consent-revoked`, `account-delete`), each applied at most once. Over the sessions (revoking
/// those of the identity), links (unlinking Apple) and deletion (Apple's `account-delete`).
package struct AppleEventFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let links: LinkFlow
    package let deletion: DeletionFlow

    package init(store: AccountStore, sessions: SessionFlow, links: LinkFlow, deletion: DeletionFlow) {
        self.store = store
        self.sessions = sessions
        self.links = links
        self.deletion = deletion
    }
}

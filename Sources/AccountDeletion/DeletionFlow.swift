import AccountLinks
import AccountSessions
import AccountStore

/// Account deletion: the record and its commit (re-checking its cause where it commits), the
/// identity files and claims, the purge of every version of the user's data, and the scheduled
/// run that finishes pending deletions. Uses the sessions (the app's own delete checks its token)
/// and links (Apple's `account-delete` of an account that linked Google since unlinks Apple
/// instead); never sign-in, purchases or the operator's check.
package struct DeletionFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let links: LinkFlow

    package init(store: AccountStore, sessions: SessionFlow, links: LinkFlow) {
        self.store = store
        self.sessions = sessions
        self.links = links
    }
}

import AccountDeletion
import AccountLinks
import AccountPurchases
import AccountSessions
import AccountStore
import AccountSuspensions

/// The operator's actions on one account (`authctl`): find, show, disable and enable, revoke
/// sessions, delete. Over the sessions, the suspensions (shown) and deletion (the same deletion
/// the app's `delete` runs).
package struct OperatorFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let suspensions: SuspensionFlow
    package let deletion: DeletionFlow

    package init(store: AccountStore, sessions: SessionFlow, suspensions: SuspensionFlow, deletion: DeletionFlow) {
        self.store = store
        self.sessions = sessions
        self.suspensions = suspensions
        self.deletion = deletion
    }
}

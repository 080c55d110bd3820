import AccountDeletion
import AccountLinks
import AccountSessions
import AccountStore
import AccountSuspensions

/// Google's security events (RISC, Cross-Account Protection): each verified event recorded on the
/// identity and applied to the account that holds it through the suspensions. Touches no session
/// record: ending sessions is the entry's `sessionsNotBefore`.
package struct GoogleEventFlow {
    package let store: AccountStore
    package let suspensions: SuspensionFlow

    package init(store: AccountStore, suspensions: SuspensionFlow) {
        self.store = store
        self.suspensions = suspensions
    }
}

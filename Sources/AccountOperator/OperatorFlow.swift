import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountStore
import AccountSuspensions
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// TODO-DOC
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

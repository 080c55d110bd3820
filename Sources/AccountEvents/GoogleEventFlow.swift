import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// TODO-DOC
package struct GoogleEventFlow {
    package let store: AccountStore
    package let suspensions: SuspensionFlow

    package init(store: AccountStore, suspensions: SuspensionFlow) {
        self.store = store
        self.suspensions = suspensions
    }
}

import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// TODO-DOC
package struct LinkFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let suspensions: SuspensionFlow

    package init(store: AccountStore, sessions: SessionFlow, suspensions: SuspensionFlow) {
        self.store = store
        self.sessions = sessions
        self.suspensions = suspensions
    }
}

import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// TODO-DOC
package struct PurchaseFlow {
    package let store: AccountStore
    package let sessions: SessionFlow

    package init(store: AccountStore, sessions: SessionFlow) {
        self.store = store
        self.sessions = sessions
    }
}

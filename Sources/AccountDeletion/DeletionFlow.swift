import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// TODO-DOC
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

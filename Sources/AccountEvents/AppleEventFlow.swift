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

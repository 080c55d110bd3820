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
package struct AppleTransferFlow {
    package let store: AccountStore
    package let links: LinkFlow

    package init(store: AccountStore, links: LinkFlow) {
        self.store = store
        self.links = links
    }
}

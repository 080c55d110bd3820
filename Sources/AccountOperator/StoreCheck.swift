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
package struct StoreCheck {
    package let store: AccountStore
    package let links: LinkFlow
    package let suspensions: SuspensionFlow
    package let deletion: DeletionFlow
    package let purchases: PurchaseFlow

    package init(store: AccountStore, links: LinkFlow, suspensions: SuspensionFlow, deletion: DeletionFlow, purchases: PurchaseFlow) {
        self.store = store
        self.links = links
        self.suspensions = suspensions
        self.deletion = deletion
        self.purchases = purchases
    }
}

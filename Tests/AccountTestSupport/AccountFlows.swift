import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountOperator
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import AccountTransfer

/// Every account flow over one store, wired as the functions and authctl wire them: what a test
/// or the simulation calls. Test-only: production code builds just the flows it uses.
package struct AccountFlows {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let suspensions: SuspensionFlow
    package let links: LinkFlow
    package let signIn: SignInFlow
    package let deletion: DeletionFlow
    package let purchases: PurchaseFlow
    package let appleEvents: AppleEventFlow
    package let googleEvents: GoogleEventFlow
    package let operatorFlow: OperatorFlow
    package let storeCheck: StoreCheck
    package let appleTransfer: AppleTransferFlow

    package init(store: AccountStore) {
        self.store = store
        sessions = SessionFlow(store: store)
        suspensions = SuspensionFlow(store: store)
        links = LinkFlow(store: store, sessions: sessions, suspensions: suspensions)
        signIn = SignInFlow(store: store, sessions: sessions, links: links, suspensions: suspensions)
        deletion = DeletionFlow(store: store, sessions: sessions, links: links)
        purchases = PurchaseFlow(store: store, sessions: sessions)
        appleEvents = AppleEventFlow(store: store, sessions: sessions, links: links, deletion: deletion)
        googleEvents = GoogleEventFlow(store: store, suspensions: suspensions)
        operatorFlow = OperatorFlow(store: store, sessions: sessions, suspensions: suspensions, deletion: deletion)
        storeCheck = StoreCheck(
            store: store, links: links, suspensions: suspensions, deletion: deletion, purchases: purchases)
        appleTransfer = AppleTransferFlow(store: store, links: links)
    }

    package init(backend: AccountBackend, settings: AccountSettings, environment: AccountEnvironment) {
        self.init(store: AccountStore(backend: backend, settings: settings, environment: environment))
    }
}

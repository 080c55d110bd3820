import AWSClients

@testable import AccountDeletion
@testable import AccountEvents
@testable import AccountLinks
@testable import AccountModel
@testable import AccountOperator
@testable import AccountPurchases
@testable import AccountSessions
@testable import AccountSignIn
@testable import AccountStore
@testable import AccountSuspensions
@testable import AccountTransfer

/// Every account flow over one store, wired as the functions and authctl wire them: what a test
/// or the simulation calls. Test-only: production code builds just the flows it uses.
struct AccountFlows {
    let store: AccountStore
    let sessions: SessionFlow
    let suspensions: SuspensionFlow
    let links: LinkFlow
    let signIn: SignInFlow
    let deletion: DeletionFlow
    let purchases: PurchaseFlow
    let appleEvents: AppleEventFlow
    let googleEvents: GoogleEventFlow
    let operatorFlow: OperatorFlow
    let storeCheck: StoreCheck
    let appleTransfer: AppleTransferFlow

    init(store: AccountStore) {
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

    init(backend: AccountBackend, settings: AccountSettings, environment: AccountEnvironment) {
        self.init(store: AccountStore(backend: backend, settings: settings, environment: environment))
    }
}

import AccountSessions
import AccountStore

/// App Store purchases bound to accounts: claims (a purchase belongs to one account), the stored
/// state of each purchase, and App Store Server Notifications applied to the owner's profile.
/// Uses the sessions (a claim checks its token); never links, deletion or sign-in.
package struct PurchaseFlow {
    package let store: AccountStore
    package let sessions: SessionFlow

    package init(store: AccountStore, sessions: SessionFlow) {
        self.store = store
        self.sessions = sessions
    }
}

import AWSClients
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
package struct SignInFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let links: LinkFlow
    package let suspensions: SuspensionFlow

    package init(store: AccountStore, sessions: SessionFlow, links: LinkFlow, suspensions: SuspensionFlow) {
        self.store = store
        self.sessions = sessions
        self.links = links
        self.suspensions = suspensions
    }

    /// `lastUsed` is rewritten only when older than this, so repeated sign-ins cost no write.
    package static let lastUsedGranularityMs: Int64 = 3_600_000
}

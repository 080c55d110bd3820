import AWSClients
import AccountSessions
import AccountStore

package enum LinkStatus: String, Sendable {
    case linked, alreadyLinked = "already_linked", unlinked
}

package struct LinkOutcome: Sendable {
    package var status: LinkStatus
    package var account: Account

    package init(status: LinkStatus, account: Account) {
        self.status = status
        self.account = account
    }
}

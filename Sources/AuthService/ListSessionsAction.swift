import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import PlatformSupport

/// auth-refresh `list`: the account's live sessions, newest first.
struct ListSessionsAction: Action {
    static let name = "list"

    let refreshToken: String

    init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .sessions(try d.sessions.listSessions(token: refreshToken, deadline: deadline))
    }
}

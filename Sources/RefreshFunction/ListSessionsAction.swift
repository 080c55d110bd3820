import AccountDeletion
import AccountEvents
import AccountLinks
import AccountPurchases
import AccountSessions
import AccountSignIn
import AuthService
import PlatformSupport

/// auth-refresh `list`: the account's live sessions, newest first.
package struct ListSessionsAction: Action {
    package static let name = "list"

    package let refreshToken: String

    package init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .sessions(try d.sessions.listSessions(token: refreshToken, deadline: deadline))
    }
}

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

/// auth-refresh `signoutOthers`: end every other live session of the account (recent sign-in).
struct SignOutOthersAction: Action {
    static let name = "signoutOthers"

    let refreshToken: String

    init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .signedOut(count: try d.sessions.signOutOthers(token: refreshToken, deadline: deadline))
    }
}

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

/// auth-refresh `signout`: end this session.
struct SignOutAction: Action {
    static let name = "signout"

    let refreshToken: String

    init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        try d.sessions.signOut(token: refreshToken, deadline: deadline)
        return .signedOut
    }
}

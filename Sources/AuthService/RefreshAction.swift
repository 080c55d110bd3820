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

/// auth-refresh `refresh` (the default): new credentials and a rotated refresh token.
struct RefreshAction: Action {
    static let name = "refresh"

    let refreshToken: String

    init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .refreshed(try d.sessions.refresh(token: refreshToken, deadline: deadline), settings: d.configuration.account)
    }
}

import AccountDeletion
import AccountEvents
import AccountLinks
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AuthService
import PlatformSupport

/// auth-refresh `refresh` (the default): new credentials and a rotated refresh token.
package struct RefreshAction: Action {
    package static let name = "refresh"

    package let refreshToken: String

    package init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .refreshed(try d.sessions.refresh(token: refreshToken, deadline: deadline), settings: d.configuration.account)
    }
}

import AccountDeletion
import AccountEvents
import AccountLinks
import AccountPurchases
import AccountSessions
import AccountSignIn
import AuthService
import PlatformSupport

/// auth-refresh `signout`: end this session.
package struct SignOutAction: Action {
    package static let name = "signout"

    package let refreshToken: String

    package init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        try d.sessions.signOut(token: refreshToken, deadline: deadline)
        return .signedOut
    }
}

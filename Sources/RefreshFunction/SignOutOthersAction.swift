import AccountDeletion
import AccountEvents
import AccountLinks
import AccountPurchases
import AccountSessions
import AccountSignIn
import AuthService
import PlatformSupport

/// auth-refresh `signoutOthers`: end every other live session of the account (recent sign-in).
package struct SignOutOthersAction: Action {
    package static let name = "signoutOthers"

    package let refreshToken: String

    package init(_ request: Request) throws(ServiceError) { refreshToken = try request.refreshToken() }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .signedOut(count: try d.sessions.signOutOthers(token: refreshToken, deadline: deadline))
    }
}

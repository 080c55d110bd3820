import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountSignIn
import AuthService
import PlatformSupport

/// auth-refresh `signoutSession`: end one session of the account by its id (another one needs a
/// recent sign-in).
package struct SignOutSessionAction: Action {
    package static let name = "signoutSession"

    package let refreshToken: String
    package let sessionID: String

    package init(_ request: Request) throws(ServiceError) {
        refreshToken = try request.refreshToken()
        sessionID = try request.sessionID()
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        try d.sessions.signOutSession(token: refreshToken, sessionID: sessionID, deadline: deadline)
        return .signedOut
    }
}

import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountSessions
import AccountSignIn
import AuthService
import PlatformSupport
import TokenVerification

/// auth-link `unlink`: remove a provider from the signed-in account (its sessions end with it).
package struct UnlinkAction: Action {
    package static let name = "unlink"

    package let refreshToken: String
    package let provider: IdentityProvider?

    package init(_ request: Request) throws(ServiceError) {
        refreshToken = try request.refreshToken()
        provider = try request.provider()
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .linked(
            try d.links.unlink(token: refreshToken, provider: provider!, deadline: deadline), provider: provider!)
    }
}

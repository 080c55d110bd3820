import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountSessions
import AccountSignIn
import AuthService
import PlatformSupport
import TokenVerification

/// auth-link `link` (the default): add a provider identity to the signed-in account.
package struct LinkAction: Action {
    package static let name = "link"

    package let refreshToken: String
    package let provider: IdentityProvider?
    package let idToken: String
    package let nonce: String?

    package init(_ request: Request) throws(ServiceError) {
        refreshToken = try request.refreshToken()
        provider = try request.provider()
        idToken = try request.idToken()
        nonce = try request.nonce()
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let identity = try d.verifier.verify(idToken, provider: provider!, nonce: nonce, deadline: deadline)
        return .linked(
            try d.links.link(token: refreshToken, identity: identity, deadline: deadline),
            provider: identity.provider)
    }
}

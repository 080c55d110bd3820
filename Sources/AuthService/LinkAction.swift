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
import TokenVerification

/// auth-link `link` (the default): add a provider identity to the signed-in account.
struct LinkAction: Action {
    static let name = "link"

    let refreshToken: String
    let provider: IdentityProvider?
    let idToken: String
    let nonce: String?

    init(_ request: Request) throws(ServiceError) {
        refreshToken = try request.refreshToken()
        provider = try request.provider()
        idToken = try request.idToken()
        nonce = try request.nonce()
    }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let identity = try d.verifier.verify(idToken, provider: provider!, nonce: nonce, deadline: deadline)
        return .linked(
            try d.links.link(token: refreshToken, identity: identity, deadline: deadline),
            provider: identity.provider)
    }
}

import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AuthService
import PlatformSupport
import TokenVerification

/// auth-signin: verify the provider's ID token, find or create the account, issue credentials
/// and a refresh session.
package struct SignInAction: Action {
    package static let name = "signin"

    package let provider: IdentityProvider?
    package let idToken: String
    package let intent: SignInIntent
    package let nonce: String?
    package let fullName: String?
    package let device: String?

    package init(_ request: Request) throws(ServiceError) {
        provider = try request.provider()
        idToken = try request.idToken()
        intent = SignInIntent(rawValue: try request.choice("intent", ["signin", "signup", "auto"], default: "auto"))!
        nonce = try request.nonce()
        fullName = try request.optionalString("fullName", maxBytes: 512)
        device = try request.deviceLabel()
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let identity = try d.verifier.verify(idToken, provider: provider!, nonce: nonce, deadline: deadline)
        let outcome = try d.signIn.signIn(
            identity: identity, intent: intent, fullName: fullName, device: device, deadline: deadline)
        return .signedIn(outcome, settings: d.configuration.account)
    }
}

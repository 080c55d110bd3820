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

/// auth-signin: verify the provider's ID token, find or create the account, issue credentials
/// and a refresh session.
struct SignInAction: Action {
    static let name = "signin"

    let provider: IdentityProvider?
    let idToken: String
    let intent: SignInIntent
    let nonce: String?
    let fullName: String?
    let device: String?

    init(_ request: Request) throws(ServiceError) {
        provider = try request.provider()
        idToken = try request.idToken()
        intent = SignInIntent(rawValue: try request.choice("intent", ["signin", "signup", "auto"], default: "auto"))!
        nonce = try request.nonce()
        fullName = try request.optionalString("fullName", maxBytes: 512)
        device = try request.deviceLabel()
    }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let identity = try d.verifier.verify(idToken, provider: provider!, nonce: nonce, deadline: deadline)
        let outcome = try d.signIn.signIn(
            identity: identity, intent: intent, fullName: fullName, device: device, deadline: deadline)
        return .signedIn(outcome, settings: d.configuration.account)
    }
}

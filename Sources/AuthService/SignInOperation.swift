import AccountDomain
import CurlHTTP
import PlatformSupport
import LambdaRuntime
import StrictJSON

/// auth-signin: verify the provider's ID token, find or create the account, issue credentials
/// and a refresh session.
public final class SignInOperation: FunctionOperation {
    let runtime: ServiceRuntime

    public init(runtime: ServiceRuntime) { self.runtime = runtime }

    public func perform(_ request: EventReader, context: LambdaContext, deadline: Deadline) throws -> JSONValue {
        let provider = try request.provider()
        let token = try request.idToken()
        let intent = SignInIntent(rawValue: try request.choice("intent", ["signin", "signup", "auto"], default: "auto"))!
        let nonce = try request.optionalString("nonce", maxBytes: 512)
        let fullName = try request.optionalString("fullName", maxBytes: 512)
        let device = try request.deviceLabel()
        let identity = try verify(runtime.verifier, token: token, provider: provider, nonce: nonce, deadline: deadline)
        let outcome: SignInOutcome
        do throws(AccountError) {
            outcome = try runtime.accounts.signIn(identity: identity, intent: intent, fullName: fullName, device: device, deadline: deadline)
        } catch {
            throw try ServiceError.from(error, provider: provider)
        }
        return .object(JSONObject([
            ("isNewUser", .bool(outcome.isNewUser)), ("user", outcome.account.userJSON),
            ("credentials", outcome.session.credentialsJSON),
            ("storage", storageJSON(runtime.configuration.account, prefix: outcome.session.storagePrefix)),
            ("refreshToken", .string(outcome.session.refreshToken.value)),
            ("refreshTokenExpiresAt", timestamp(outcome.session.refreshTokenExpiresAtMs)),
        ]))
    }
}

import AccountDomain
import CurlHTTP
import PlatformSupport
import LambdaRuntime
import StrictJSON

/// auth-link: add a provider to the signed-in account, or remove one. Both need a session whose
/// original sign-in is recent (RECENT_AUTH_SECONDS).
public final class LinkOperation: FunctionOperation {
    let runtime: ServiceRuntime

    public init(runtime: ServiceRuntime) { self.runtime = runtime }

    public func perform(_ request: EventReader, context: LambdaContext, deadline: Deadline) throws -> JSONValue {
        let token = try request.refreshToken()
        let action = try request.choice("action", ["link", "unlink"], default: "link")
        let provider = try request.provider()
        let outcome: LinkOutcome
        if action == "link" {
            let idToken = try request.idToken()
            let nonce = try request.optionalString("nonce", maxBytes: 512)
            let identity = try verify(runtime.verifier, token: idToken, provider: provider, nonce: nonce, deadline: deadline)
            do throws(AccountError) { outcome = try runtime.accounts.link(token: token, identity: identity, deadline: deadline) } catch {
                throw try ServiceError.from(error, provider: provider)
            }
        } else {
            do throws(AccountError) { outcome = try runtime.accounts.unlink(token: token, provider: provider, deadline: deadline) } catch {
                throw try ServiceError.from(error, provider: provider)
            }
        }
        return .object(JSONObject([("status", .string(outcome.status.rawValue)), ("user", outcome.account.userJSON)]))
    }
}

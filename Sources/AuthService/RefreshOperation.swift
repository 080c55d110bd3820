import AccountDomain
import CurlHTTP
import LambdaRuntime
import StrictJSON

/// auth-refresh: trade a refresh token for new credentials and a rotated token, or sign out.
public final class RefreshOperation: FunctionOperation {
    let runtime: ServiceRuntime

    public init(runtime: ServiceRuntime) { self.runtime = runtime }

    public func perform(_ request: EventReader, context: LambdaContext, deadline: Deadline) throws -> JSONValue {
        let token = try request.refreshToken()
        let action = try request.choice("action", ["refresh", "signout"], default: "refresh")
        do throws(AccountError) {
            if action == "signout" {
                try runtime.accounts.signOut(token: token, deadline: deadline)
                return ["signedOut": true]
            }
            let outcome = try runtime.accounts.refresh(token: token, deadline: deadline)
            return .object(JSONObject([
                ("credentials", outcome.session.credentialsJSON),
                ("storage", storageJSON(runtime.configuration.account, prefix: outcome.session.storagePrefix)),
                ("refreshToken", .string(outcome.session.refreshToken.value)),
                ("refreshTokenExpiresAt", timestamp(outcome.session.refreshTokenExpiresAtMs)),
                ("user", outcome.account.userJSON),
            ]))
        } catch {
            throw try ServiceError.from(error)
        }
    }
}

import AccountDomain
import CurlHTTP
import LambdaRuntime
import PlatformSupport
import StrictJSON

/// auth-refresh: the sessions. Trade a refresh token for new credentials and a rotated token, list
/// the account's sessions, or sign this one, another one, or all others out.
public final class RefreshOperation: FunctionOperation {
    let runtime: ServiceRuntime

    public init(runtime: ServiceRuntime) { self.runtime = runtime }

    public func perform(_ request: EventReader, context: LambdaContext, deadline: Deadline) throws -> JSONValue {
        let token = try request.refreshToken()
        let action = try request.choice("action", ["refresh", "signout", "list", "signoutOthers", "signoutSession"], default: "refresh")
        let sessionID = action == "signoutSession" ? try request.sessionID() : nil
        let accounts = runtime.accounts
        do throws(AccountError) {
            switch action {
            case "signout":
                try accounts.signOut(token: token, deadline: deadline)
                return ["signedOut": true]
            case "list":
                let sessions = try accounts.listSessions(token: token, deadline: deadline)
                return .object(JSONObject([("sessions", .array(sessions.map(sessionJSON)))]))
            case "signoutOthers":
                return .object(JSONObject([("signedOut", .int(Int64(try accounts.signOutOthers(token: token, deadline: deadline))))]))
            case "signoutSession":
                try accounts.signOutSession(token: token, sessionID: sessionID!, deadline: deadline)
                return ["signedOut": true]
            default:
                let outcome = try accounts.refresh(token: token, deadline: deadline)
                return .object(JSONObject([
                    ("credentials", outcome.session.credentialsJSON),
                    ("storage", storageJSON(runtime.configuration.account, prefix: outcome.session.storagePrefix)),
                    ("refreshToken", .string(outcome.session.refreshToken.value)),
                    ("refreshTokenExpiresAt", timestamp(outcome.session.refreshTokenExpiresAtMs)),
                    ("user", outcome.account.userJSON),
                ]))
            }
        } catch {
            throw try ServiceError.from(error)
        }
    }

    func sessionJSON(_ s: SessionSummary) -> JSONValue {
        .object(JSONObject([
            ("sessionId", .string(s.sessionID)), ("provider", .string(s.provider.rawValue)), ("device", s.device.map(JSONValue.string) ?? .null),
            ("signedInAt", timestamp(s.signedInAtMs)), ("lastRefreshedAt", timestamp(s.lastRefreshedAtMs)),
            ("expiresAt", timestamp(s.expiresAtMs)), ("current", .bool(s.isCurrent)),
        ]))
    }
}

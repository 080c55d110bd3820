import AccountDeletion
import AccountEvents
import AccountModel
import AccountStore
import AccountSuspensions
import StrictJSON
import TokenVerification

extension Answer {
    /// A Google security event token's answer (its events, in order): `status` is the first
    /// event's outcome (Google sends one event per token). Each change writes an audit line:
    /// `endSessions` when an account's sessions of that identity ended, `suspendIdentity` when
    /// the identity's suspension started or ended (with or without an account). A `verification`
    /// echoes its `state` in the log line, an unknown type its name.
    package static func googleSecurityEvent(_ handled: [(GoogleSecurityEvent, GoogleSecurityEventResult)]) -> Answer {
        var answer = event(status: handled.first?.1.outcome.rawValue ?? "acknowledged")
        var logged: [JSONValue] = []
        for (event, result) in handled {
            var line = JSONObject([
                ("type", .string(event.kind == .other ? event.type : event.kind.rawValue)),
                ("outcome", .string(result.outcome.rawValue)),
            ])
            if let state = event.state, event.kind == .verification {
                line["state"] = .string(SecurityEventText.printable(state) ?? "(not printable)")
            }
            if let reason = event.reason { line["reason"] = .string(SecurityEventText.printable(reason) ?? "?") }
            logged.append(.object(line))
            answer.audits += audits(event, result)
            if event.kind == .accountDisabled, result.suspensionChanged {
                answer.counts["IdentitySuspensions", default: 0] += 1
            }
        }
        answer.log = [("securityEvents", .array(logged))]
        return answer
    }

    private static func audits(_ event: GoogleSecurityEvent, _ result: GoogleSecurityEventResult) -> [AuditRecord] {
        var out: [AuditRecord] = []
        let google = IdentityProvider.google.rawValue
        if let state = result.suspension, result.suspensionChanged {
            out.append(
                AuditRecord(
                    operation: "suspendIdentity", serviceUserID: result.serviceUserID, provider: google,
                    outcome: state.suspended ? "suspended" : "lifted"))
        }
        if result.sessionsEnded, let uuid = result.serviceUserID {
            out.append(
                AuditRecord(
                    operation: "endSessions", serviceUserID: uuid, provider: google, outcome: event.kind.rawValue))
        }
        return out
    }
}

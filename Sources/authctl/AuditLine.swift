import AWSClients
import PlatformSupport
import StrictJSON

#if canImport(Glibc)
import Glibc
#endif

/// One JSON line of the operator's trail (docs/operations.md, "Audit lines"), written to
/// standard error and appended to AUTHCTL_AUDIT_LOG when that is set: who (STS
/// GetCallerIdentity's ARN and account), what, which UUID, why, and the phase: `read` (an action
/// that changes nothing: reads, dry runs), `intent` (before the first write), `outcome` (after:
/// done, or failed and the state it left), `summary` (the end of `check --repair`). Never a
/// token, a hash or a secret: the fields are named here, nothing else gets in.
struct AuditLine {
    enum Phase: String {
        case read, intent, outcome, summary
    }

    var caller: CallerIdentity
    var action: String
    var serviceUserID: String?
    var reason: String?
    var dryRun: Bool
    var phase: Phase
    var outcome: String?
    var details: [(String, JSONValue)] = []

    var json: JSONValue {
        var o = JSONObject([
            ("audit", "authctl"), ("at", .string(ISO8601.format(milliseconds: Clock.nowMilliseconds()))),
            ("operator", .object(JSONObject([("arn", .string(caller.arn)), ("account", .string(caller.account))]))),
            ("action", .string(action)), ("serviceUserID", serviceUserID.map(JSONValue.string) ?? .null),
            ("reason", reason.map(JSONValue.string) ?? .null), ("dryRun", .bool(dryRun)),
            ("phase", .string(phase.rawValue)),
        ])
        if let outcome { o["outcome"] = .string(outcome) }
        for (k, v) in details { o[k] = v }
        return .object(o)
    }

    /// Writes the line; false when AUTHCTL_AUDIT_LOG is set and did not take all of it (synced).
    func write() -> Bool {
        let line = json.serializedString()
        Terminal.err(line)
        guard let path = Environment.nonEmpty("AUTHCTL_AUDIT_LOG") else { return true }
        return AuditLine.append(path, Array((line + "\n").utf8))
    }

    /// Appends and syncs; a symbolic link as the log is refused like any other path problem.
    private static func append(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard n > 0 else { return false }
            offset += n
        }
        return fsync(fd) == 0
    }
}

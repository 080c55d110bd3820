import AWSClients
import PlatformSupport
import StrictJSON

#if canImport(Glibc)
import Glibc
#endif

/// Every operator action writes one JSON line to standard error (and, with AUTHCTL_AUDIT_LOG,
/// appends it to that file): who (STS GetCallerIdentity's ARN and account), what, which UUID,
/// why, and the outcome. Never a token, a hash or a secret: the fields are named here, nothing
/// else gets in.
struct AuditLine {
    var caller: CallerIdentity
    var action: String
    var serviceUserID: String?
    var reason: String?
    var dryRun: Bool
    var outcome: String
    var details: [(String, JSONValue)] = []

    var json: JSONValue {
        var o = JSONObject([
            ("audit", "authctl"), ("at", .string(ISO8601.format(milliseconds: Clock.nowMilliseconds()))),
            ("operator", .object(JSONObject([("arn", .string(caller.arn)), ("account", .string(caller.account))]))),
            ("action", .string(action)), ("serviceUserID", serviceUserID.map(JSONValue.string) ?? .null),
            ("reason", reason.map(JSONValue.string) ?? .null), ("dryRun", .bool(dryRun)),
            ("outcome", .string(outcome)),
        ])
        for (k, v) in details { o[k] = v }
        return .object(o)
    }

    func write() {
        let line = json.serializedString()
        Terminal.err(line)
        if let path = Environment.nonEmpty("AUTHCTL_AUDIT_LOG") { AuditLine.append(path, line + "\n") }
    }

    private static func append(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else {
            Terminal.err("authctl: cannot append to AUTHCTL_AUDIT_LOG")
            return
        }
        Terminal.write(fd: fd, text)
        close(fd)
    }
}

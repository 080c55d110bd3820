import PlatformSupport
import StrictJSON

/// The rules over a Google security event token's claims, as Google's Cross-Account Protection
/// documentation gives them (docs/API.md, "Google's security events"): the RISC configuration's
/// issuer, `aud` one of this deployment's Google audiences, no `exp` check (events describe the
/// past), `iat` not in the future and not older than the `jti` markers are kept (so that each
/// `jti` is processed at most once), and the `events` claim read event by event.
struct SecurityEventRules {
    /// SETs older than this are refused: their `jti` marker may have expired (the template keeps
    /// `notifications/google-risc/` markers 32 days).
    static let maxAgeSeconds: Int64 = 30 * 24 * 3600
    static let maxEventIDBytes = 256
    static let maxEvents = 8
    static let maxTextBytes = 256
    /// The issuer forms a subject's `iss` may take (Google's ID-token and RISC issuers).
    static let subjectIssuers = ["https://accounts.google.com/", "https://accounts.google.com", "accounts.google.com"]

    let issuers: [String]
    let audiences: [String]
    let leeway: Int64

    func validate(_ claims: JSONObject, now: Int64) throws(TokenError) -> GoogleSecurityEventToken {
        try ClaimRules.checkIssuerAndAudience(
            claims, .google, issuers: issuers, audiences: audiences, what: "security event token")
        let iat = try ClaimRules.checkIssuedAt(
            claims, now: now, leeway: leeway, maxAge: Self.maxAgeSeconds, maxAgeText: "30 days",
            what: "security event token")
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= Self.maxEventIDBytes,
            jti.utf8.allSatisfy(ASCII.isVisible)
        else { throw .invalid("security event token has no usable id (jti)") }
        guard let events = claims["events"]?.objectValue, events.count > 0 else {
            throw .invalid("security event token has no events")
        }
        guard events.count <= Self.maxEvents else { throw .invalid("security event token has too many events") }
        var read: [GoogleSecurityEvent] = []
        for (type, body) in events {
            guard let detail = body.objectValue else { throw .invalid("a security event is not an object") }
            read.append(try event(type, detail))
        }
        return GoogleSecurityEventToken(eventID: jti, issuedAt: iat, events: read)
    }

    func event(_ type: String, _ detail: JSONObject) throws(TokenError) -> GoogleSecurityEvent {
        var event = GoogleSecurityEvent(kind: .init(uri: type), type: SecurityEventText.printable(type) ?? "?")
        event.reason = try text(detail["reason"], "reason")
        event.state = try text(detail["state"], "state")
        if let value = detail["subject"], !value.isNull {
            guard let subject = value.objectValue else { throw .invalid("a security event's subject is not an object") }
            event.subjectType = try text(subject["subject_type"], "subject type")
            if ["iss-sub", "id_token_claims"].contains(event.subjectType),
                let sub = try text(subject["sub"], "subject"),
                subject["iss"].map({ $0.stringValue.map(Self.subjectIssuers.contains) ?? false }) ?? true
            {
                event.subject = sub
            }
        }
        return event
    }

    /// An optional string member, at most `maxTextBytes`.
    func text(_ value: JSONValue?, _ what: String) throws(TokenError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let s = value.stringValue, s.utf8.count <= Self.maxTextBytes else {
            throw .invalid("a security event's \(what) is not a short string")
        }
        return s
    }

}

/// What of a security event's text may appear in a log line.
package enum SecurityEventText {
    /// `text` when it is visible ASCII and spaces only (at most 512 bytes), else nil.
    package static func printable(_ text: String) -> String? {
        text.utf8.count <= 512 && text.utf8.allSatisfy({ ASCII.isVisible($0) || $0 == 0x20 }) ? text : nil
    }
}

import PlatformSupport
import StrictJSON

/// The rules over a Sign in with Apple notification's claims (docs/API.md, "Notifications").
/// Apple signs these like its ID tokens (same JWKS, issuer, audience = the app's client id), but
/// they describe an event rather than a sign-in: no `exp` need be present, `iat` is at most
/// 24 hours old (a replay window the `jti` markers close), and the event sits in `events`, which
/// Apple sends as a JSON string (some senders as an object: both are read).
struct AppleNotificationRules {
    static let maxAgeSeconds: Int64 = 24 * 3600
    /// A `jti` names the marker object (`notifications/apple-account/…`); Apple's are UUID-like.
    static let maxNotificationIDBytes = 128

    let issuers: [String]
    let audiences: [String]
    let leeway: Int64

    func validate(_ claims: JSONObject, now: Int64) throws(TokenError) -> AppleAccountNotification {
        try ClaimRules.checkIssuerAndAudience(
            claims, .apple, issuers: issuers, audiences: audiences, what: "notification")

        _ = try ClaimRules.checkIssuedAt(
            claims, now: now, leeway: leeway, maxAge: Self.maxAgeSeconds &+ leeway, maxAgeText: "24 hours",
            what: "notification")
        if let expValue = claims["exp"] {
            guard let exp = expValue.int64Value else {
                throw .invalid("notification expiry (exp) is not an integer time")
            }
            if now > exp &+ leeway { throw TokenError(kind: .expired, message: "notification has expired") }
        }

        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= Self.maxNotificationIDBytes,
            jti.utf8.allSatisfy(ASCII.isVisible)
        else { throw .invalid("notification has no usable id (jti)") }

        let events = try Self.events(claims["events"])
        guard let type = events["type"]?.stringValue, !type.isEmpty, type.utf8.count <= 64 else {
            throw .invalid("notification event has no type")
        }
        guard let sub = events["sub"]?.stringValue else { throw .invalid("notification event has no subject") }
        guard ProviderSubject.isValid(sub) else {
            throw .invalid("notification subject is not a valid provider user id")
        }
        var eventTime: Int64?
        if let value = events["event_time"], !value.isNull {
            guard let t = value.int64Value else { throw .invalid("notification event time is not an integer") }
            eventTime = t
        }
        return AppleAccountNotification(eventType: type, subject: sub, notificationID: jti, eventTime: eventTime)
    }

    /// `events`: a string holding a JSON object (as Apple documents it), or the object itself.
    static func events(_ value: JSONValue?) throws(TokenError) -> JSONObject {
        switch value {
        case .object(let object)?: return object
        case .string(let text)?:
            return try JSONParser.object(Array(text.utf8), "notification events", TokenError.invalid)
        default: throw .invalid("notification has no events")
        }
    }
}

import PlatformSupport
import StrictJSON

/// Google's word on whether a Google identity may sign in here (contract v4, "Google's security
/// events"): `account-disabled` with reason `hijacking` suspends it, `account-enabled` lifts the
/// suspension. Kept in two places that always move together (docs/decisions/accounts-and-sessions.md,
/// "Where a Google identity's suspension lives"):
/// - `suspensions/google/{sub}.json`, keyed by the identity, whether or not an account holds it
///   (the authority sign-up, sign-in and link read before they write anything);
/// - the `suspension` member of the identity's entry in the holding account's providers.json
///   (what refresh and every session check read in the round they make anyway, so a suspended
///   identity's sessions stop at once, whatever raced the event).
///
/// Events arrive out of order and more than once, so a state applies only over an older one
/// (`eventIssuedAtMs`, the security event token's `iat`); at the same instant a suspension wins.
package struct IdentitySuspension: Sendable, Equatable {
    package var suspended: Bool
    /// Google's `reason` for the suspension (`hijacking`); nil once lifted.
    package var reason: String?
    /// When the event that set this state was issued (the SET's `iat`, in milliseconds).
    package var eventIssuedAtMs: Int64
    /// When this service applied it.
    package var changedAtMs: Int64

    package init(suspended: Bool, reason: String?, eventIssuedAtMs: Int64, changedAtMs: Int64) {
        self.suspended = suspended
        self.reason = reason
        self.eventIssuedAtMs = eventIssuedAtMs
        self.changedAtMs = changedAtMs
    }

    /// Whether this state replaces `older` (nil: nothing known yet).
    package func supersedes(_ older: IdentitySuspension?) -> Bool {
        guard let older else { return true }
        if eventIssuedAtMs != older.eventIssuedAtMs { return eventIssuedAtMs > older.eventIssuedAtMs }
        return suspended && !older.suspended
    }

    /// Whether `self` and `other` say the same thing about the identity (the time it was applied
    /// aside: the record and the entry are written moments apart).
    package func agrees(with other: IdentitySuspension?) -> Bool {
        guard let other else { return !suspended }
        return suspended == other.suspended && eventIssuedAtMs == other.eventIssuedAtMs
    }

    package var json: JSONValue {
        func ts(_ ms: Int64) -> JSONValue { .string(ISO8601.format(milliseconds: ms, fractional: true)) }
        return .object(
            JSONObject([
                ("suspended", .bool(suspended)), ("reason", reason.map(JSONValue.string) ?? .null),
                ("eventIssuedAt", ts(eventIssuedAtMs)), ("changedAt", ts(changedAtMs)),
            ]))
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let suspended = o["suspended"]?.boolValue,
            let issued = o["eventIssuedAt"]?.stringValue.flatMap(ISO8601.parse),
            let changed = o["changedAt"]?.stringValue.flatMap(ISO8601.parse)
        else { return nil }
        if let r = o["reason"], r != .null, r.stringValue == nil { return nil }
        self.init(suspended: suspended, reason: o["reason"]?.stringValue, eventIssuedAtMs: issued, changedAtMs: changed)
    }

    /// The record's body (`suspensions/google/{sub}.json`): the state, with a version.
    package var recordJSON: JSONValue {
        guard case .object(var o) = json else { return json }
        o["version"] = .int(1)
        return .object(o)
    }
}

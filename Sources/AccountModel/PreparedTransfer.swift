import PlatformSupport
import StrictJSON

/// An app transfer prepared for one Apple link (contract v4, "An app moved to another Apple
/// developer team"): the recipient team and the `transfer_sub` Apple gave for it, whose file
/// `identities/apple-transfer/<sub>` names this account. Kept on the link (providers.json), so the
/// account's deletion and unlink know which transfer files are theirs, and a re-key can tell the
/// transfer it is about from a stale one (docs/decisions/accounts-and-sessions.md, "Prepared transfers").
///
/// `rekeyedFrom` is set by the re-key's providers.json write (the commit point) to the `sub` the
/// link had before, and stays until the re-key's clean-up has removed (v4: that old identity file and)
/// the transfer files: while it is set, the next operation that reads the link finishes the job.
package struct PreparedTransfer: Sendable, Equatable {
    /// The recipient team's id (Apple's `target`).
    package var team: String
    /// The `transfer_sub` for that team.
    package var sub: String
    package var atMs: Int64
    /// The link's `sub` before this transfer's re-key; nil until then.
    package var rekeyedFrom: String?
    /// The link's email before the re-key, so the clean-up moves the profile's email along when it
    /// was that (the relay address of the old team stops forwarding).
    package var formerEmail: String?

    package var json: JSONValue {
        var o = JSONObject([
            ("team", .string(team)), ("sub", .string(sub)),
            ("at", .string(ISO8601.format(milliseconds: atMs, fractional: true))),
        ])
        if let rekeyedFrom { o["rekeyedFrom"] = .string(rekeyedFrom) }
        if let formerEmail { o["formerEmail"] = .string(formerEmail) }
        return .object(o)
    }

    package init(team: String, sub: String, atMs: Int64, rekeyedFrom: String? = nil, formerEmail: String? = nil) {
        self.team = team
        self.sub = sub
        self.atMs = atMs
        self.rekeyedFrom = rekeyedFrom
        self.formerEmail = formerEmail
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let team = o["team"]?.stringValue, let sub = o["sub"]?.stringValue,
            let at = o["at"]?.stringValue.flatMap(ISO8601.parse)
        else { return nil }
        self.init(
            team: team, sub: sub, atMs: at, rekeyedFrom: o["rekeyedFrom"]?.stringValue,
            formerEmail: o["formerEmail"]?.stringValue)
    }
}

import AccountModel
import AccountStore
import PlatformSupport
import StrictJSON

/// The operator's `apple-transfer prepare` progress toward one recipient team
/// (`operator/apple-transfer/<team>.json`, docs/API.md "S3 layout"): the walk of
/// `identities/apple/` in S3's key order is done up to and including `after`, so a run that
/// stopped (killed, Apple unavailable, the deadline) continues after it. It is written only after
/// every identity up to `after` is prepared or recorded as failed; a run killed between two
/// writes redoes at most the identities since the last one, which is harmless (Apple gives the
/// same `transfer_sub` again, the files exist, the transfer is recorded). Written with If-Match,
/// so two runs for one team at once notice each other and the second stops.
package struct TransferProgress: Sendable {
    package var team: String
    /// The last identity key handled; nil: the walk starts at the beginning.
    package var after: String?
    /// The walk reached the end; the next run starts a new pass (cheap: prepared identities cost
    /// no request to Apple), which picks up users who signed up since.
    package var finished = false
    package var passes = 1
    package var startedAtMs: Int64
    package var updatedAtMs: Int64
    /// This pass's totals over its runs.
    package var totals = TransferRunReport()

    package init(team: String, nowMs: Int64) {
        self.team = team
        startedAtMs = nowMs
        updatedAtMs = nowMs
    }

    package var json: JSONValue {
        func ts(_ ms: Int64) -> JSONValue { .string(ISO8601.format(milliseconds: ms)) }
        return .object(
            JSONObject([
                ("version", .int(1)), ("team", .string(team)), ("after", after.map(JSONValue.string) ?? .null),
                ("finished", .bool(finished)), ("passes", .int(Int64(passes))), ("startedAt", ts(startedAtMs)),
                ("updatedAt", ts(updatedAtMs)), ("totals", totals.json),
            ]))
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let team = o["team"]?.stringValue,
            let started = o["startedAt"]?.stringValue.flatMap(ISO8601.parse),
            let updated = o["updatedAt"]?.stringValue.flatMap(ISO8601.parse),
            let totals = o["totals"].flatMap(TransferRunReport.init(json:))
        else { return nil }
        self.team = team
        after = o["after"]?.stringValue
        finished = o["finished"]?.boolValue ?? false
        passes = Int(clamping: o["passes"]?.int64Value ?? 1)
        startedAtMs = started
        updatedAtMs = updated
        self.totals = totals
    }
}

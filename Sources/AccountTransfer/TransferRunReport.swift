import AccountModel
import AccountStore
import StrictJSON

/// What an app-transfer run (`prepare` or `complete`, contract v4) did: counts by outcome, the
/// users Apple or the bucket would not let it handle and why (the first `keptFailures`; the
/// counts hold them all), and where and why it stopped.
package struct TransferRunReport: Sendable {
    /// Identities (or transfer files) walked this run.
    package var walked = 0
    /// Prepared (or re-keyed) this run.
    package var done = 0
    /// Found done already (a resumed run's overlap, another run's work, a user who signed in).
    package var already = 0
    /// Not concerned, by reason (a stale identity file, a deleted account...): no failure.
    package var skipped: [String: Int] = [:]
    /// Could not be handled, by reason (`invalid_request`: usually the user revoked the app).
    package var failedCounts: [String: Int] = [:]
    package private(set) var failures: [TransferFailure] = []
    /// Requests to Apple this run (the client's count, retries included).
    package var appleRequests = 0
    /// Whether the walk reached the end (a `prepare` marks its progress finished then).
    package var finished = false
    /// Why the run stopped before the end, if it did.
    package var stoppedBecause: String?
    /// Where the run began (a resumed `prepare`: the key after which it continued).
    package var resumedAfter: String?

    package static let keptFailures = 1_000

    package var failed: Int { failedCounts.values.reduce(0, +) }

    package mutating func fail(_ who: String, _ reason: String) {
        failedCounts[reason, default: 0] += 1
        if failures.count < Self.keptFailures { failures.append(TransferFailure(who: who, reason: reason)) }
    }

    package mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

    package init() {}

    /// Adds another run's counts and failures (a pass's totals over its runs).
    package mutating func add(_ other: TransferRunReport) {
        walked += other.walked
        done += other.done
        already += other.already
        appleRequests += other.appleRequests
        for (k, v) in other.skipped { skipped[k, default: 0] += v }
        for (k, v) in other.failedCounts { failedCounts[k, default: 0] += v }
        failures = Array((failures + other.failures).prefix(Self.keptFailures))
    }

    /// The counts and failures as `json` wrote them (the run-only fields are not kept).
    package init?(json: JSONValue) {
        guard let o = json.objectValue else { return nil }
        func int(_ name: String) -> Int? { o[name]?.int64Value.map { Int(clamping: $0) } }
        func counts(_ name: String) -> [String: Int]? {
            guard let c = o[name]?.objectValue else { return nil }
            var out: [String: Int] = [:]
            for (k, v) in c {
                guard let n = v.int64Value else { return nil }
                out[k] = Int(clamping: n)
            }
            return out
        }
        guard let walked = int("walked"), let done = int("done"), let already = int("already"),
            let skipped = counts("skipped"), let failed = counts("failed"), let list = o["failures"]?.arrayValue
        else { return nil }
        (self.walked, self.done, self.already, self.skipped, failedCounts) = (walked, done, already, skipped, failed)
        appleRequests = int("appleRequests") ?? 0
        for item in list {
            guard let who = item["who"]?.stringValue, let reason = item["reason"]?.stringValue else { return nil }
            failures.append(TransferFailure(who: who, reason: reason))
        }
    }

    package var json: JSONValue {
        func counts(_ d: [String: Int]) -> JSONValue {
            .object(JSONObject(d.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int(Int64($0.value))) }))
        }
        return .object(
            JSONObject([
                ("walked", .int(Int64(walked))), ("done", .int(Int64(done))), ("already", .int(Int64(already))),
                ("skipped", counts(skipped)), ("failed", counts(failedCounts)),
                ("failures", .array(failures.map(\.json))), ("failuresCount", .int(Int64(failed))),
                ("appleRequests", .int(Int64(appleRequests))), ("finished", .bool(finished)),
                ("stoppedBecause", stoppedBecause.map(JSONValue.string) ?? .null),
                ("resumedAfter", resumedAfter.map(JSONValue.string) ?? .null),
            ]))
    }
}

/// One user a transfer run could not handle: who (`apple:<sub>`, or the account for `complete`) and why.
package struct TransferFailure: Sendable, Equatable {
    package var who: String
    package var reason: String

    package var json: JSONValue { .object(JSONObject([("who", .string(who)), ("reason", .string(reason))])) }
}

import PlatformSupport
import StrictJSON

/// `deletions/{uuid}.json`: an account deletion, when it was asked and how far it got
/// (docs/API.md, auth-link `delete`). Written before the deletion commits (create-only), so a
/// deletion that stops anywhere is found and finished by the scheduled run. Holds no personal
/// data: times and counts only (the UUID is the key).
package struct DeletionRecord: Sendable, Equatable {
    var serviceUserID: String
    var requestedAtMs: Int64
    /// When providers.json took `deletedAt` (nil: asked, not yet committed).
    var committedAtMs: Int64?
    /// Identity files and purchase claims that named the account are gone.
    var mappingsRemoved = false
    /// The commit found a link claimed but not its identity file: that link may still write it,
    /// so providers.json (which names it) is kept, and the purge waits, until it cannot.
    var linksInFlight = false
    /// Purge passes run so far, and whether the last one reached the end of `users/{uuid}/`.
    var purgePasses = 0
    var purgeComplete = false
    var objectsDeleted = 0
    /// When the second pass may run (credentials issued before the deletion can still write
    /// until then), and when it did.
    var secondPassDueAtMs: Int64?
    var secondPassDoneAtMs: Int64?

    var isDone: Bool { secondPassDoneAtMs != nil }

    init(serviceUserID: String, requestedAtMs: Int64) {
        self.serviceUserID = serviceUserID
        self.requestedAtMs = requestedAtMs
    }

    package var json: JSONValue {
        func ts(_ v: Int64?) -> JSONValue {
            v.map { .string(ISO8601.format(milliseconds: $0, fractional: true)) } ?? .null
        }
        return .object(
            JSONObject([
                ("version", .int(1)), ("serviceUserID", .string(serviceUserID)), ("requestedAt", ts(requestedAtMs)),
                ("committedAt", ts(committedAtMs)), ("mappingsRemoved", .bool(mappingsRemoved)),
                ("linksInFlight", .bool(linksInFlight)),
                (
                    "purge",
                    .object(
                        JSONObject([
                            ("passes", .int(purgePasses)), ("complete", .bool(purgeComplete)),
                            ("objectsDeleted", .int(objectsDeleted)),
                        ])
                    )
                ),
                ("secondPassDueAt", ts(secondPassDueAtMs)), ("secondPassDoneAt", ts(secondPassDoneAtMs)),
            ]))
    }

    package init?(json: JSONValue) {
        func ts(_ v: JSONValue?) -> Int64? { v?.stringValue.flatMap(ISO8601.parse) }
        guard let o = json.objectValue, let uuid = o["serviceUserID"]?.stringValue, let requested = ts(o["requestedAt"])
        else { return nil }
        self.init(serviceUserID: uuid, requestedAtMs: requested)
        committedAtMs = ts(o["committedAt"])
        mappingsRemoved = o["mappingsRemoved"]?.boolValue ?? false
        linksInFlight = o["linksInFlight"]?.boolValue ?? false
        purgePasses = Int(o["purge"]?["passes"]?.int64Value ?? 0)
        purgeComplete = o["purge"]?["complete"]?.boolValue ?? false
        objectsDeleted = Int(o["purge"]?["objectsDeleted"]?.int64Value ?? 0)
        secondPassDueAtMs = ts(o["secondPassDueAt"])
        secondPassDoneAtMs = ts(o["secondPassDoneAt"])
    }
}

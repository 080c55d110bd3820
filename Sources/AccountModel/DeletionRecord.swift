import PlatformSupport
import StrictJSON

/// `deletions/{uuid}.json`: an account deletion, when it was asked and how far it got
/// (docs/API.md, auth-link `delete`). Written before the deletion commits (create-only), so a
/// deletion that stops anywhere is found and finished by the scheduled run. Holds no personal
/// data: times and counts only (the UUID is the key).
package struct DeletionRecord: Sendable, Equatable {
    package var serviceUserID: String
    package var requestedAtMs: Int64
    /// Who asked: the user or an operator, or Apple's `account-delete` (which commits only while
    /// its Apple link is the account's only listed provider; see `DeletionCause`).
    package var cause: DeletionCause = .requested
    /// When providers.json took `deletedAt` (nil: asked, not yet committed).
    package var committedAtMs: Int64?
    /// Identity files and purchase claims that named the account are gone.
    package var mappingsRemoved = false
    /// The commit found a link claimed but not its identity file: that link may still write it,
    /// so providers.json (which names it) is kept, and the purge waits, until it cannot.
    package var linksInFlight = false
    /// Purge passes run so far, and whether the last one reached the end of `users/{uuid}/`.
    package var purgePasses = 0
    package var purgeComplete = false
    package var objectsDeleted = 0
    /// Keys (versions, delete markers) and uploads the last pass found but could not remove: 0
    /// when none. The scheduled run tries them again; `authctl check` reports a record where this
    /// is not 0. A count only: key names may be personal data.
    package var keysFailed = 0
    /// When the second pass may run (credentials issued before the deletion can still write
    /// until then), and when it did.
    package var secondPassDueAtMs: Int64?
    package var secondPassDoneAtMs: Int64?

    package var isDone: Bool { secondPassDoneAtMs != nil }

    /// Counts one purge pass: what it deleted, a completed pass, and what it could not remove (as
    /// the last pass that got that far found it: one that ran out of time first says nothing).
    package mutating func take(_ pass: PurgePass) {
        objectsDeleted += pass.deleted
        if pass.complete || pass.failed > 0 { keysFailed = pass.failed }
        if pass.complete { purgePasses += 1 }
    }

    package init(serviceUserID: String, requestedAtMs: Int64) {
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
                ("cause", causeJSON),
                ("committedAt", ts(committedAtMs)), ("mappingsRemoved", .bool(mappingsRemoved)),
                ("linksInFlight", .bool(linksInFlight)),
                (
                    "purge",
                    .object(
                        JSONObject([
                            ("passes", .int(purgePasses)), ("complete", .bool(purgeComplete)),
                            ("objectsDeleted", .int(objectsDeleted)), ("keysFailed", .int(keysFailed)),
                        ])
                    )
                ),
                ("secondPassDueAt", ts(secondPassDueAtMs)), ("secondPassDoneAt", ts(secondPassDoneAtMs)),
            ]))
    }

    private var causeJSON: JSONValue {
        switch cause {
        case .requested: return .object(JSONObject([("kind", .string("requested"))]))
        case .appleAccountDelete(let linkID):
            return .object(
                JSONObject([
                    ("kind", .string(DeletionCause.appleAccountDeleteName)),
                    ("linkID", linkID.map(JSONValue.string) ?? .null),
                ]))
        }
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
        keysFailed = Int(o["purge"]?["keysFailed"]?.int64Value ?? 0)
        // A record written before causes were kept reads as requested: nothing tells Apple's apart.
        switch o["cause"]?["kind"]?.stringValue {
        case nil, "requested": cause = .requested
        case DeletionCause.appleAccountDeleteName?:
            cause = .appleAccountDelete(linkID: o["cause"]?["linkID"]?.stringValue)
        default: return nil
        }
        secondPassDueAtMs = ts(o["secondPassDueAt"])
        secondPassDoneAtMs = ts(o["secondPassDoneAt"])
    }
}

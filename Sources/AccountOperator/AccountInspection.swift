import AccountDeletion
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport
import PurchaseModel
import StrictJSON

/// Everything the service holds about one account, as `authctl show` and `export` present it
/// (docs/operations.md): profile, providers, session metadata, purchases with their states, the
/// disable and the deletion record. Never a token hash, a link id or another secret: the JSON is
/// built field by field from what may be shown, not by copying the stored documents.
package struct AccountInspection: Sendable {
    package struct Purchase: Sendable {
        package var originalTransactionID: String
        /// The account the claim file names (nil: no claim file).
        package var claimedBy: String?
        /// `purchases/apple-state/{id}.json` as stored (contract v3; nil: none yet).
        package var state: JSONValue?

    }

    package var serviceUserID: String
    package var profile: Profile?
    package var providers: ProvidersDocument?
    package var sessions: [SessionRecord] = []
    package var purchases: [Purchase] = []
    package var deletion: DeletionRecord?
    /// Google's suspension records (`suspensions/google/{sub}.json`) of the account's Google
    /// identities, by `sub` (absent: none stored).
    package var suspensionRecords: [String: IdentitySuspension] = [:]
    /// Keys under `users/{uuid}/` (with `--with-object-keys`), and whether the listing reached the end.
    package var objectKeys: [String]?
    package var objectKeysComplete = true

    package var exists: Bool { profile != nil || providers != nil || deletion != nil }

    /// The JSON of `show --json` and of `export`. `forExport` leaves out what is about the
    /// operators rather than the person (who disabled the account).
    package func json(nowMs: Int64, forExport: Bool) -> JSONValue {
        func ts(_ ms: Int64?) -> JSONValue { ms.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null }
        var o = JSONObject([("serviceUserID", .string(serviceUserID))])
        if forExport { o["exportedAt"] = ts(nowMs) }
        o["profile"] = profile?.json ?? .null
        o["providers"] = .array(
            (providers?.providers ?? []).map { link in
                var l = JSONObject([
                    ("type", .string(link.type.rawValue)), ("id", .string(link.id)),
                    ("email", link.email.map(JSONValue.string) ?? .null),
                    ("displayName", link.displayName.map(JSONValue.string) ?? .null),
                    ("linkedAt", .string(link.linkedAt)), ("lastUsed", .string(link.lastUsed)),
                    ("isPrimary", .bool(link.isPrimary)),
                    ("emailDeliverable", link.emailDeliverable.map(JSONValue.bool) ?? .null),
                    ("sessionsEndedAt", ts(link.sessionsNotBeforeMs)),
                    ("suspension", link.suspension?.json ?? .null),
                    (
                        "suspensionRecord",
                        (link.type == .google ? suspensionRecords[link.id] : nil).map(\.json) ?? .null
                    ),
                ])
                // An app transfer (contract v4): the ids before a re-key, the transfers prepared.
                if !link.formerIDs.isEmpty { l["formerIDs"] = .array(link.formerIDs.map(JSONValue.string)) }
                if !link.transfers.isEmpty { l["transfers"] = .array(link.transfers.map(\.json)) }
                return .object(l)
            })
        var disabled: JSONValue = .null
        if let d = providers?.disabled {
            var dj = JSONObject([("reason", .string(d.reason)), ("at", ts(d.atMs))])
            if !forExport { dj["by"] = .string(d.by) }
            disabled = .object(dj)
        }
        o["disabled"] = disabled
        o["deleted"] = providers?.deletedAtMs.map { ts($0) } ?? .null
        o["sessions"] = .array(
            sessions.sorted { ($0.signInAtMs, $0.sessionID) > ($1.signInAtMs, $1.sessionID) }.map { r in
                .object(
                    JSONObject([
                        ("sessionId", .string(r.sessionID)), ("provider", .string(r.identity.provider.rawValue)),
                        ("device", r.device.map(JSONValue.string) ?? .null), ("signedInAt", ts(r.signInAtMs)),
                        ("lastRefreshedAt", ts(r.currentIssuedAtMs)), ("expiresAt", ts(r.expiresAtMs)),
                        ("live", .bool(r.isLive(nowMs: nowMs) && (providers?.accepts(r) ?? false))),
                        ("revokedAt", ts(r.revokedAtMs)),
                        ("revokedReason", r.revokedReason.map(JSONValue.string) ?? .null),
                    ]))
            })
        o["purchases"] = .array(
            purchases.map { p in
                .object(
                    JSONObject([
                        ("originalTransactionId", .string(p.originalTransactionID)),
                        ("claimed", .bool(p.claimedBy == serviceUserID)), ("state", p.state ?? .null),
                    ]))
            })
        o["entitlement"] = profile.map { Subscription.judged($0.subscription, nowMs: Clock.nowMilliseconds()) } ?? .null
        o["deletion"] = deletion?.json ?? .null
        if let objectKeys {
            o["objectKeys"] = .array(objectKeys.map(JSONValue.string))
            o["objectKeysComplete"] = .bool(objectKeysComplete)
        }
        return .object(o)
    }
}

extension AccountInspection {
    /// What an operator's change may have left, in a few fields (the audit line of a change that
    /// failed partway: contract v4): whether the account holds anything, is disabled, how far a
    /// deletion got, and how many sessions still work.
    package func changeState(nowMs: Int64) -> JSONValue {
        func ts(_ ms: Int64?) -> JSONValue { ms.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null }
        var deletionState: JSONValue = .null
        if let d = deletion {
            deletionState = .object(
                JSONObject([
                    ("requestedAt", ts(d.requestedAtMs)), ("committedAt", ts(d.committedAtMs)),
                    ("mappingsRemoved", .bool(d.mappingsRemoved)), ("purgeComplete", .bool(d.purgeComplete)),
                    ("secondPassDoneAt", ts(d.secondPassDoneAtMs)),
                ]))
        }
        let deleted = providers?.isDeleted ?? (deletion != nil)
        let live =
            deleted ? 0 : sessions.filter { $0.isLive(nowMs: nowMs) && (providers?.lists($0.identity) ?? false) }.count
        return .object(
            JSONObject([
                ("exists", .bool(exists)), ("disabled", .bool(providers?.disabled != nil)),
                ("deleted", .bool(deleted)), ("deletion", deletionState),
                ("liveSessions", .int(Int64(live))),
            ]))
    }
}

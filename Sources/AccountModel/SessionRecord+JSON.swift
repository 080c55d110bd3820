import PlatformSupport
import StrictJSON
import TokenVerification

extension SessionRecord {
    /// The stored form. Version 2 added `identity`, `device` and `replaced`; version 1 records
    /// (provider only) are still read: their identity has no `sub` (see `ProvidersDocument.lists`).
    /// Version 3 (v5) added `current.presentedAt` and `supersededAt`; a record without
    /// `presentedAt` reads as presented at issue, one without `supersededAt` anchors the
    /// superseded tokens' grace at the normal rotation (both the v4 rule it was written under).
    package var json: JSONValue {
        func ts(_ v: Int64?) -> JSONValue {
            v.map { .string(ISO8601.format(milliseconds: $0, fractional: true)) } ?? .null
        }
        return .object(
            JSONObject([
                ("version", .int(3)), ("sessionID", .string(sessionID)), ("serviceUserID", .string(serviceUserID)),
                ("provider", .string(identity.provider.rawValue)), ("identity", identity.json),
                ("device", device.map(JSONValue.string) ?? .null), ("signInAt", ts(signInAtMs)),
                ("expiresAt", ts(expiresAtMs)),
                ("generation", .int(generation)),
                (
                    "current",
                    .object(
                        JSONObject([
                            ("hash", .string(currentHash)), ("issuedAt", ts(currentIssuedAtMs)),
                            ("presentedAt", ts(currentPresentedAtMs)),
                        ]))
                ),
                (
                    "previous",
                    previousHash.map {
                        .object(JSONObject([("hash", .string($0)), ("rotatedAt", ts(previousRotatedAtMs))]))
                    } ?? .null
                ),
                ("superseded", .array(superseded.map(JSONValue.string))),
                ("supersededAt", .array(supersededAtMs.map { ts($0) })),
                ("replaced", .array(replaced.map(JSONValue.string))),
                ("revokedAt", ts(revokedAtMs)), ("revokedReason", revokedReason.map(JSONValue.string) ?? .null),
            ]))
    }

    package init?(json: JSONValue) {
        func ts(_ v: JSONValue?) -> Int64? { v?.stringValue.flatMap(ISO8601.parse) }
        func hashes(_ v: JSONValue?) -> [String] { v?.arrayValue?.compactMap(\.stringValue) ?? [] }
        guard let o = json.objectValue, let sid = o["sessionID"]?.stringValue,
            let uid = o["serviceUserID"]?.stringValue,
            let provider = o["provider"]?.stringValue.flatMap(IdentityProvider.init(rawValue:)),
            let signIn = ts(o["signInAt"]), let expires = ts(o["expiresAt"]), let current = o["current"]?.objectValue,
            let currentHash = current["hash"]?.stringValue, let issued = ts(current["issuedAt"])
        else { return nil }
        let identity =
            SessionIdentity(json: o["identity"]) ?? SessionIdentity(provider: provider, subject: nil, linkID: nil)
        // `rotatedAt` belongs to a previous token: without its hash there is none (the writer
        // drops it, so keeping it would not survive the next write; found by fuzzing).
        let previous = o["previous"]?.objectValue
        let previousHash = previous?["hash"]?.stringValue
        let superseded = hashes(o["superseded"])
        // Kept only whole: a list that does not match `superseded` one for one is dropped (the
        // grace then counts from the normal rotation, as before v5).
        let times = o["supersededAt"]?.arrayValue?.compactMap { ts($0) } ?? []
        let presentedAt: Int64? =
            switch current["presentedAt"] {
            case nil: issued
            case let value?: ts(value)
            }
        self.init(
            sessionID: sid, serviceUserID: uid, identity: identity, device: o["device"]?.stringValue,
            signInAtMs: signIn,
            expiresAtMs: expires, generation: o["generation"]?.int64Value ?? 1, currentHash: currentHash,
            currentIssuedAtMs: issued, currentPresentedAtMs: presentedAt,
            previousHash: previousHash, previousRotatedAtMs: previousHash == nil ? nil : ts(previous?["rotatedAt"]),
            superseded: superseded, supersededAtMs: times.count == superseded.count ? times : [],
            replaced: hashes(o["replaced"]),
            revokedAtMs: ts(o["revokedAt"]), revokedReason: o["revokedReason"]?.stringValue)
    }
}

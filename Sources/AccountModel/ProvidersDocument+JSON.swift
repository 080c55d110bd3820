import PlatformSupport
import StrictJSON
import TokenVerification

extension ProvidersDocument {
    package var json: JSONValue {
        func ts(_ ms: Int64) -> JSONValue { .string(ISO8601.format(milliseconds: ms, fractional: true)) }
        var o = JSONObject([
            ("version", .int(1)), ("primaryProvider", .string(primaryProvider.rawValue)),
            ("providers", .array(providers.map(\.json))),
        ])
        if !pending.isEmpty {
            o["pending"] = .array(
                pending.map { p in
                    .object(
                        JSONObject([
                            ("type", .string(p.type.rawValue)), ("id", .string(p.id)), ("linkID", .string(p.linkID)),
                            ("since", ts(p.sinceMs)),
                        ]))
                })
        }
        if !retired.isEmpty {
            o["retired"] = .array(
                retired.map { r in
                    var entry = JSONObject([
                        ("type", .string(r.type.rawValue)), ("id", .string(r.id)),
                        ("linkID", r.linkID.map(JSONValue.string) ?? .null),
                        ("at", ts(r.atMs)),
                    ])
                    if !r.transfers.isEmpty { entry["transfers"] = .array(r.transfers.map(\.json)) }
                    if !r.formerIDs.isEmpty { entry["formerIDs"] = .array(r.formerIDs.map(JSONValue.string)) }
                    return .object(entry)
                })
        }
        if let deletedAtMs { o["deletedAt"] = ts(deletedAtMs) }
        if !purchases.isEmpty { o["purchases"] = .array(purchases.map(JSONValue.string)) }
        if let disabled { o["disabled"] = disabled.json }
        for (k, v) in extra where o[k] == nil { o[k] = v }
        return .object(o)
    }

    package init?(json: JSONValue) {
        func provider(_ v: JSONValue?) -> IdentityProvider? { v?.stringValue.flatMap(IdentityProvider.init(rawValue:)) }
        func ts(_ v: JSONValue?) -> Int64? { v?.stringValue.flatMap(ISO8601.parse) }
        guard let o = json.objectValue, let primary = provider(o["primaryProvider"]),
            let list = o["providers"]?.arrayValue
        else { return nil }
        var links: [ProviderLink] = []
        for item in list {
            guard let link = ProviderLink(json: item) else { return nil }
            links.append(link)
        }
        var pending: [PendingLink] = []
        for item in o["pending"]?.arrayValue ?? [] {
            guard let p = item.objectValue, let type = provider(p["type"]), let id = p["id"]?.stringValue,
                let linkID = p["linkID"]?.stringValue, let since = ts(p["since"])
            else { return nil }
            pending.append(PendingLink(type: type, id: id, linkID: linkID, sinceMs: since))
        }
        var retired: [RetiredLink] = []
        for item in o["retired"]?.arrayValue ?? [] {
            guard let r = item.objectValue, let type = provider(r["type"]), let id = r["id"]?.stringValue,
                let at = ts(r["at"])
            else { return nil }
            var transfers: [PreparedTransfer] = []
            for t in r["transfers"]?.arrayValue ?? [] {
                guard let transfer = PreparedTransfer(json: t) else { return nil }
                transfers.append(transfer)
            }
            var retiredLink = RetiredLink(
                type: type, id: id, linkID: r["linkID"]?.stringValue, atMs: at, transfers: transfers)
            for former in r["formerIDs"]?.arrayValue ?? [] {
                guard let id = former.stringValue else { return nil }
                retiredLink.formerIDs.append(id)
            }
            retired.append(retiredLink)
        }
        self.init(primaryProvider: primary, providers: links, pending: pending, retired: retired)
        deletedAtMs = ts(o["deletedAt"])
        for item in o["purchases"]?.arrayValue ?? [] {
            guard let id = item.stringValue else { return nil }
            purchases.append(id)
        }
        if let d = o["disabled"], d != .null {
            guard let parsed = AccountDisable(json: d) else { return nil }
            disabled = parsed
        }
        let known: Set<String> = [
            "version", "primaryProvider", "providers", "pending", "retired", "deletedAt", "purchases", "disabled",
        ]
        for (k, v) in o where !known.contains(k) { extra[k] = v }
    }
}

extension ProviderLink {
    package var json: JSONValue {
        var o = JSONObject([
            ("type", .string(type.rawValue)), ("id", .string(id)), ("email", email.map(JSONValue.string) ?? .null),
            ("displayName", displayName.map(JSONValue.string) ?? .null), ("linkedAt", .string(linkedAt)),
            ("lastUsed", .string(lastUsed)), ("isPrimary", .bool(isPrimary)),
            ("linkID", linkID.map(JSONValue.string) ?? .null),
        ])
        if let emailDeliverable { o["emailDeliverable"] = .bool(emailDeliverable) }
        if !formerIDs.isEmpty { o["formerIDs"] = .array(formerIDs.map(JSONValue.string)) }
        if !transfers.isEmpty { o["transfers"] = .array(transfers.map(\.json)) }
        if let sessionsNotBeforeMs {
            o["sessionsNotBefore"] = .string(ISO8601.format(milliseconds: sessionsNotBeforeMs, fractional: true))
        }
        if let suspension { o["suspension"] = suspension.json }
        return .object(o)
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let type = o["type"]?.stringValue.flatMap(IdentityProvider.init(rawValue:)),
            let id = o["id"]?.stringValue, let linked = o["linkedAt"]?.stringValue
        else { return nil }
        self.init(
            type: type, id: id, email: o["email"]?.stringValue, displayName: o["displayName"]?.stringValue,
            linkedAt: linked, lastUsed: o["lastUsed"]?.stringValue ?? linked,
            isPrimary: o["isPrimary"]?.boolValue ?? false, linkID: o["linkID"]?.stringValue,
            emailDeliverable: o["emailDeliverable"]?.boolValue)
        for item in o["formerIDs"]?.arrayValue ?? [] {
            guard let id = item.stringValue else { return nil }
            formerIDs.append(id)
        }
        for item in o["transfers"]?.arrayValue ?? [] {
            guard let transfer = PreparedTransfer(json: item) else { return nil }
            transfers.append(transfer)
        }
        if let v = o["sessionsNotBefore"], v != .null {
            guard let ms = v.stringValue.flatMap(ISO8601.parse) else { return nil }
            sessionsNotBeforeMs = ms
        }
        if let v = o["suspension"], v != .null {
            guard let parsed = IdentitySuspension(json: v) else { return nil }
            suspension = parsed
        }
    }
}

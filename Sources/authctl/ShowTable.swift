import PlatformSupport
import StrictJSON

/// `show`'s readable form, built from the same JSON as `show --json` (one source for both).
enum ShowTable {
    static func lines(_ json: JSONValue) -> [String] {
        func s(_ v: JSONValue?) -> String {
            switch v {
            case .string(let x)?: return x
            case .number(let x)?: return x
            case .bool(let x)?: return x ? "yes" : "no"
            case .null?, nil: return "-"
            default: return v?.serializedString() ?? "-"
            }
        }
        var out: [String] = []
        let profile = json["profile"]
        out.append("account    \(s(json["serviceUserID"]))")
        guard profile != nil, profile != .null else {
            out.append("profile    none")
            out.append("deletion   \(deletionText(json["deletion"]))")
            return out
        }
        out.append("name       \(s(profile?["displayName"]))   email \(s(profile?["email"]))")
        out.append("created    \(s(profile?["createdAt"]))   updated \(s(profile?["lastUpdated"]))")
        let disabled = json["disabled"]
        out.append(
            "disabled   "
                + (disabled == nil || disabled == .null
                    ? "no" : "yes, \(s(disabled?["at"])) by \(s(disabled?["by"])): \(s(disabled?["reason"]))"))
        out.append("deletion   \(deletionText(json["deletion"]))")
        out.append("")
        out.append("PROVIDERS")
        var rows = [["type", "id", "email", "deliverable", "primary", "linked", "last used"]]
        for p in json["providers"]?.arrayValue ?? [] {
            rows.append([
                s(p["type"]), s(p["id"]), s(p["email"]), s(p["emailDeliverable"]), s(p["isPrimary"]), s(p["linkedAt"]),
                s(p["lastUsed"]),
            ])
        }
        out += table(rows)
        // An app transfer's former ids and prepared transfers (contract v4); Google's word on its
        // identities (issue 25): a suspension, and when their sessions were ended.
        for p in json["providers"]?.arrayValue ?? [] {
            for former in p["formerIDs"]?.arrayValue ?? [] {
                out.append("  \(s(p["id"])) was \(s(former)) (app transfer)")
            }
            for t in p["transfers"]?.arrayValue ?? [] {
                out.append(
                    "  \(s(p["id"])): transfer to team \(s(t["team"])) prepared \(s(t["at"]))"
                        + (t["rekeyedFrom"].map { $0 == .null ? "" : ", re-keyed, clean-up pending" } ?? ""))
            }
            let record = p["suspensionRecord"], entry = p["suspension"]
            if let state = record ?? nil, state != .null {
                let on = state["suspended"] == .bool(true)
                out.append(
                    "\(s(p["type"])) \(s(p["id"])): "
                        + (on
                            ? "SUSPENDED by Google (\(s(state["reason"]))) since \(s(state["changedAt"]))"
                            : "suspension lifted \(s(state["changedAt"]))")
                        + (entry?["suspended"] == state["suspended"]
                            && entry?["eventIssuedAt"] == state["eventIssuedAt"]
                            || (!on && (entry == nil || entry == .null))
                            ? "" : " (the account's entry says otherwise: run check --repair)"))
            }
            if let ended = p["sessionsEndedAt"], ended != .null {
                out.append(
                    "\(s(p["type"])) \(s(p["id"])): sessions signed in before \(s(ended)) were ended by Google's events"
                )
            }
        }
        out.append("")
        let live = (json["sessions"]?.arrayValue ?? []).filter { $0["live"] == .bool(true) }
        out.append("LIVE SESSIONS (\(live.count))")
        rows = [["session", "provider", "device", "signed in", "last refresh", "expires"]]
        for r in live {
            rows.append([
                s(r["sessionId"]), s(r["provider"]), s(r["device"]), s(r["signedInAt"]), s(r["lastRefreshedAt"]),
                s(r["expiresAt"]),
            ])
        }
        out += table(rows)
        out.append("")
        let purchases = json["purchases"]?.arrayValue ?? []
        out.append("PURCHASES (\(purchases.count))")
        rows = [["originalTransactionId", "claimed", "product", "status", "expires", "signed"]]
        // The stored state keeps Apple's milliseconds since the epoch; people read ISO-8601.
        func time(_ v: JSONValue?) -> String { v?.int64Value.map { ISO8601.format(milliseconds: $0) } ?? s(v) }
        for p in purchases {
            let st = p["state"]
            let none = st == nil || st == .null
            rows.append([
                s(p["originalTransactionId"]), s(p["claimed"]), none ? "none" : s(st?["productId"]),
                none ? "none" : s(st?["status"]), none ? "-" : time(st?["expiresDate"]),
                none ? "-" : time(st?["signedDate"]),
            ])
        }
        out += table(rows)
        let e = json["entitlement"]
        out.append(
            "entitlement  tier \(s(e?["tier"]))  status \(s(e?["status"]))  expires \(s(e?["expiryDate"]))  product \(s(e?["productID"]))"
        )
        return out
    }

    static func deletionText(_ d: JSONValue?) -> String {
        guard let d, d != .null else { return "none" }
        let purge = d["purge"]
        return
            "asked \(d["requestedAt"]?.stringValue ?? "-"), purge complete \(purge?["complete"] == .bool(true) ? "yes" : "no"), "
            + "second pass \(d["secondPassDoneAt"]?.stringValue ?? "due " + (d["secondPassDueAt"]?.stringValue ?? "-"))"
    }

    /// Columns padded to their widest cell.
    static func table(_ rows: [[String]]) -> [String] {
        guard let first = rows.first else { return [] }
        var widths = first.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}

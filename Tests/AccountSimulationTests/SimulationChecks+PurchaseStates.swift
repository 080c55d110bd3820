import AccountTestSupport
import PlatformSupport
import StrictJSON

/// Contract v3's purchase invariants, read from the stored JSON (never through the code under
/// test), checked after the run (before any repairing sign-in) and again after the repair:
/// - no purchase entry of a profile is newer than its purchase's stored state
///   (`purchases/apple-state/`), which every writer stores first;
/// - a purchase whose newest state is revoked or expired is never `active` on any live account;
/// - each live account's `subscription` lists exactly the purchases it has claimed (whose claim
///   file names it), each as its newest state, and is the best of them (`active` before `grace`
///   before `expired`/`revoked`, then the later expiry, the later signature, the smaller id).
/// A purchase whose claim or notification crashed or failed on the way (after the state, before
/// the profile) may lag until the app or Apple sends it again: only the first rule holds for it.
/// That happens without any injected fault too: an operation that runs out of its deadline (its
/// calls waiting behind other actors) fails with UPSTREAM_UNAVAILABLE partway, as a Lambda
/// invocation that times out does (seed 487: a claim wrote its claim file, then ran out of time
/// before the profile, and an operator's disable then kept the app from sending it again).
extension SimulationChecks {
    mutating func purchaseStates(phase: String) {
        let unsettled = unsettledPurchases
        let deleted = deletedAccounts
        var states: [String: JSONValue] = [:]
        for id in SimulationWorld.purchaseIDs { states[id] = s3.json("purchases/apple-state/\(id).json") }
        for key in s3.keys where key.hasPrefix("users/") && key.hasSuffix("/account/profile.json") {
            let uuid = String(key.dropFirst("users/".count).prefix(36))
            guard !deleted.contains(uuid), let subscription = s3.json(key)?["subscription"] else { continue }
            let who = "\(phase): \(uuid.prefix(8))"
            let entries = subscription["purchases"]?.arrayValue ?? []
            for entry in entries {
                let id = entry["originalTransactionId"]?.stringValue ?? "?"
                guard let state = states[id], let stateSigned = state["signedDate"]?.int64Value else {
                    report("\(who) lists \(id), which has no stored state")
                    continue
                }
                if let signed = ms(entry["signedDate"]), signed > stateSigned {
                    report("\(who)'s entry of \(id) is newer than the purchase's stored state")
                }
                if entry["status"] == "active", ["revoked", "expired"].contains(state["status"]?.stringValue),
                    !unsettled.contains(id)
                {
                    report("\(who): \(id) is active though its newest state is \(state["status"]?.stringValue ?? "")")
                }
            }
            let claimed = SimulationWorld.purchaseIDs.filter { s3.text("purchases/apple/\($0)") == uuid }
            guard !claimed.contains(where: unsettled.contains) else { continue }
            let listed = entries.compactMap { $0["originalTransactionId"]?.stringValue }
            if Set(listed) != Set(claimed) || listed.count != claimed.count {
                report("\(who) lists \(listed.sorted()) but has claimed \(claimed)")
                continue
            }
            for entry in entries {
                let id = entry["originalTransactionId"]?.stringValue ?? ""
                if ms(entry["signedDate"]) != states[id]?["signedDate"]?.int64Value
                    || entry["status"] != states[id]?["status"]
                {
                    report("\(who)'s entry of \(id) is not the purchase's newest state")
                }
            }
            guard let best = bestPurchase(claimed.compactMap { id in states[id].map { (id, $0) } }) else { continue }
            let paid = best.status == "active" || best.status == "grace"
            let expected: [(String, JSONValue)] = [
                ("originalTransactionId", .string(best.id)), ("status", .string(best.status)),
                ("tier", .string(paid ? SimulationWorld.product.tier : "free")),
                ("storageLimit", .int(paid ? SimulationWorld.product.storageLimit : 209_715_200)),
                ("expiryDate", best.expiry.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null),
            ]
            let candidates = claimed.map { id in
                let s = states[id]
                return "\(id) \(s?["status"]?.stringValue ?? "?") expires \(s?["expiresDate"]?.int64Value ?? -1)"
                    + " grace \(s?["gracePeriodExpiresDate"]?.int64Value ?? -1) signed \(s?["signedDate"]?.int64Value ?? -1)"
            }
            for (name, value) in expected where subscription[name] != value {
                report(
                    "\(who)'s subscription \(name) is \(subscription[name] ?? .null), the best purchase says \(value)"
                        + " (stored states: \(candidates.joined(separator: "; ")); entries: \(entries))")
            }
        }
    }

    /// The best of `(id, stored state)` by the contract's order, computed here on its own.
    private func bestPurchase(
        _ states: [(String, JSONValue)]
    ) -> (id: String, status: String, expiry: Int64?, signed: Int64)? {
        let candidates = states.map { (id, s) -> (id: String, status: String, expiry: Int64?, signed: Int64) in
            let status = s["status"]?.stringValue ?? ""
            let grace = status == "grace" ? s["gracePeriodExpiresDate"]?.int64Value : nil
            // In whole seconds, as the contract's `expiryDate` is written (the order's precision).
            let expiry = (grace ?? s["expiresDate"]?.int64Value).map { $0 / 1000 * 1000 }
            return (id, status, expiry, s["signedDate"]?.int64Value ?? 0)
        }
        func rank(_ s: String) -> Int { s == "active" ? 2 : s == "grace" ? 1 : 0 }
        return candidates.max { a, b in
            if rank(a.status) != rank(b.status) { return rank(a.status) < rank(b.status) }
            if (a.expiry ?? .max) != (b.expiry ?? .max) { return (a.expiry ?? .max) < (b.expiry ?? .max) }
            if a.signed != b.signed { return a.signed < b.signed }
            return a.id > b.id
        }
    }

    /// Purchases with a claim or notification that crashed or failed other than by a refusal.
    private var unsettledPurchases: Set<String> {
        Set(
            world.records.compactMap { r -> String? in
                guard let id = r.purchase else { return nil }
                switch r.outcome {
                case .crashed: return id
                case .failure(.conflict), .failure(.upstream), .failure(.internalError), .failure(.corruptDocument):
                    return id
                default: return nil
                }
            })
    }

    private func ms(_ value: JSONValue?) -> Int64? { value?.stringValue.flatMap(ISO8601.parse) }
}

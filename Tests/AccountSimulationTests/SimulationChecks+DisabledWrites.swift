import AccountTestSupport
import StrictJSON

/// No link, unlink or claim commits on a disabled account (simulation seed 487 on the i25-risc
/// branch: a link and a claim that read the account before the disable wrote after it). Every
/// applied write of the run is walked in order, with each account's providers.json as last
/// written; while it holds `disabled` (and not `deletedAt`):
/// - no write of providers.json by a link, unlink, claim or sign-in lists an identity (active or
///   pending), retires one, or lists a purchase, and no claim writes its listing at all (even
///   unchanged: that write is the claim's commit);
/// - no claim file naming the account is created, and no profile.json of it written, by a claim
///   whose listing write did not come before the disable;
/// - no identity file naming the account is created by a link or sign-in that answered success,
///   nor by one that answered without meeting a fault and left it there (unless the account was
///   enabled or deleted again before the answer: the commit came after that).
/// "Disabled" is the stored flag, which is written before the disable answers: stronger than
/// "after the disable answered", and it needs no timing of the operations. Apple's and Google's
/// events, the operator's actions and the scheduled run are not the account's own actions.
extension SimulationChecks {
    /// providers.json as the check needs it, read from the stored bytes.
    private struct Listing {
        var identities: Set<String> = []
        var pending: Set<String> = []
        var purchases: Set<String> = []
        var disabled = false
        var deleted = false
        /// Disabled and not deleted: the state in which no own action may commit.
        var isDisabled: Bool { disabled && !deleted }

        init(_ body: [UInt8]?) {
            guard let body, let o = (try? JSONParser.parse(body))?.objectValue else { return }
            func entries(_ name: String) -> Set<String> {
                Set(
                    (o[name]?.arrayValue ?? []).compactMap { e in
                        guard let type = e["type"]?.stringValue, let id = e["id"]?.stringValue else { return nil }
                        return "\(type):\(id)/\(e["linkID"]?.stringValue ?? "-")"
                    })
            }
            identities = entries("providers")
            pending = entries("pending")
            purchases = Set((o["purchases"]?.arrayValue ?? []).compactMap(\.stringValue))
            disabled = !(o["disabled"]?.isNull ?? true)
            deleted = !(o["deletedAt"]?.isNull ?? true)
        }
    }

    private static let ownActions = ["link ", "unlink ", "claim ", "signIn "]

    mutating func noCommitWhileDisabled() {
        let records = Dictionary(world.records.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let writes = world.scheduler.writes
        // The account → the operation whose write disabled it, and that write, while it is disabled.
        var disabledBy: [String: (op: Int, write: Int)] = [:]
        for (n, w) in writes.enumerated() {
            if w.key.hasPrefix("users/") && w.key.hasSuffix("/account/providers.json") {
                let uuid = String(w.key.dropFirst("users/".count).prefix(36))
                let before = Listing(w.before), after = Listing(w.after)
                let wasDisabled = before.isDisabled
                if after.isDisabled {
                    if !wasDisabled { disabledBy[uuid] = (w.op, n) }
                } else {
                    disabledBy[uuid] = nil
                }
                guard wasDisabled, after.isDisabled, let r = records[w.op],
                    Self.ownActions.contains(where: { r.name.hasPrefix($0) })
                else { continue }
                var changes: [String] = []
                changes += after.identities.subtracting(before.identities).sorted().map { "listed \($0)" }
                changes += after.pending.subtracting(before.pending).sorted().map { "claimed \($0)" }
                changes += before.identities.subtracting(after.identities).sorted().map { "retired \($0)" }
                changes += after.purchases.subtracting(before.purchases).sorted().map { "listed purchase \($0)" }
                if r.name.hasPrefix("claim "), changes.isEmpty, before.purchases.isSubset(of: after.purchases) {
                    changes.append("wrote its listing")  // taking a listing back is no commit
                }
                for change in changes {
                    fail(
                        "op \(r.id) \(r.name) \(change) on account \(uuid.prefix(8)) while disabled (by op \(disabledBy[uuid]?.op ?? -1))"
                    )
                }
            } else if w.key.hasPrefix("users/") && w.key.hasSuffix("/account/profile.json") {
                // Issue 35, defect 10: a claim's profile write is the tail of a claim committed in
                // its listing write; without one before the disable, it is a write on a disabled
                // account (a repeat claim used to skip the listing and rewrite the profile).
                let uuid = String(w.key.dropFirst("users/".count).prefix(36))
                guard let (by, disabledAt) = disabledBy[uuid], let r = records[w.op], r.name.hasPrefix("claim ")
                else { continue }
                let providers = AccountKeys.providers(uuid)
                if !writes[..<disabledAt].contains(where: { $0.op == w.op && $0.key == providers }) {
                    fail(
                        "op \(r.id) \(r.name) wrote profile.json of account \(uuid.prefix(8)) while disabled (by op \(by)), without committing before"
                    )
                }
            } else if w.key.hasPrefix("identities/") || w.key.hasPrefix("purchases/apple/"), w.before == nil,
                let after = w.after
            {
                let uuid = String(decoding: after, as: UTF8.self)
                guard let (by, disabledAt) = disabledBy[uuid], let r = records[w.op],
                    Self.ownActions.contains(where: { r.name.hasPrefix($0) })
                else { continue }
                let providers = AccountKeys.providers(uuid)
                if w.key.hasPrefix("purchases/apple/") {
                    // A claim file is the tail of a claim committed in its listing write.
                    if !writes[..<disabledAt].contains(where: { $0.op == w.op && $0.key == providers }) {
                        fail(
                            "op \(r.id) \(r.name) created \(w.key) for account \(uuid.prefix(8)) while disabled (by op \(by)), without listing it before"
                        )
                    }
                    continue
                }
                // Enabled (or deleted) again before the answer: its commit may come after that.
                let later = writes[(n + 1)...].prefix { $0.atMs <= r.endMs }
                guard !later.contains(where: { $0.key == providers && !Listing($0.after).isDisabled }) else { continue }
                // Its own file still there at its answer (not one another operation made since).
                let last = later.last { $0.key == w.key } ?? w
                let left = last.op == w.op && last.after != nil
                let cleanAnswer = r.succeededOrFailed && !world.scheduler.faultedOps.contains(r.id)
                if r.succeeded || (cleanAnswer && left) {
                    fail(
                        "op \(r.id) \(r.name) created \(w.key) for account \(uuid.prefix(8)) while disabled (by op \(by))\(r.succeeded ? " and answered success" : ", and left it")"
                    )
                }
            }
        }
    }
}

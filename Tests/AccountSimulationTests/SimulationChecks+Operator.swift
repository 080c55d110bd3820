import AccountTestSupport

/// The operator's invariants (issue 20), from the records and the stored JSON:
/// - a disabled account gets no successful answer to its own actions (sessions of it, sign-ins
///   reaching it) that ran entirely after the disable answered and before any later enable began;
/// - after an operator's revoke of every session answered, no session of the account that
///   existed before the revoke began refreshes again;
/// - after an operator's deletion answered, no later operation reaches the account (as for the
///   app's delete); the deletion itself is held to the same final state by `deletionsComplete`
///   (every deleted account, whoever deleted it).
/// Then every account is enabled again (fault-free), so the session and repair checks that
/// follow see the accounts as their people would once support is done.
extension SimulationChecks {
    mutating func operatorActions() {
        // The operator's actions on one account (not the app transfer's `opPrepare`/`opComplete`).
        let ops = world.records.filter { $0.name.hasPrefix("op") && $0.name.split(separator: " ").count > 1 }
        func target(_ r: OpRecord) -> String { String(r.name.split(separator: " ")[1]) }
        func own(_ r: OpRecord, _ uuid: String) -> Bool { r.session?.uuid == uuid || r.reached == uuid }
        for d in ops where d.name.hasPrefix("opDisable") && d.succeeded {
            let uuid = target(d)
            // Until an enable or a deletion (operator's, app's, Apple's) of the account may have begun:
            // a deleted account's sessions answer as a deleted account's do.
            let ends = world.records.filter {
                $0.endMs >= d.startMs
                    && ($0.name == "opEnable \(uuid)" || $0.name == "opDelete \(uuid)"
                        || ($0.name == "delete" && $0.session?.uuid == uuid) || $0.name == "apple account-delete")
            }
            let end = ends.map(\.startMs).min() ?? .max
            for r in world.records
            where own(r, uuid) && r.succeeded && r.startMs >= d.endMs && r.endMs <= end && r.id != d.id {
                report("op \(r.id) \(r.name) succeeded on disabled account \(uuid.prefix(8)) (disabled by op \(d.id))")
            }
        }
        for v in ops where v.name.hasPrefix("opRevoke ") && v.succeeded {
            let uuid = target(v)
            let before = Set(world.records.filter { $0.startMs < v.startMs }.compactMap { $0.session?.sessionID })
            for r in world.records
            where ["refresh", "replay", "steal"].contains(r.name) && r.succeeded && r.startMs > v.endMs
                && r.session?.uuid == uuid && before.contains(r.session!.sessionID)
            {
                report("op \(r.id) \(r.name): a session revoked by op \(v.id) refreshed")
            }
        }
        for d in ops where d.name.hasPrefix("opDelete") && d.succeeded {
            let uuid = target(d)
            // As for the app's delete, signing out of a deleted account's session may answer success.
            for r in world.records where r.startMs > d.endMs && r.succeeded && own(r, uuid) && r.name != "signOut" {
                report("op \(r.id) \(r.name) reached account \(uuid.prefix(8)) after the operator deleted it")
            }
        }
        let service = world.settleService()
        for uuid in Set(ops.map(target)).sorted() {
            do throws(AccountError) { _ = try service.operatorFlow.setDisabled(uuid, nil, deadline: .none) } catch {
                if case .accountNotFound = error { continue }
                report("enabling \(uuid.prefix(8)) after the run answered \(error)")
            }
        }
    }
}

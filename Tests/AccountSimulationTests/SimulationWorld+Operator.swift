import AccountTestSupport
import PlatformSupport

/// The operator in the simulation (issue 20): disables and enables accounts, signs their
/// sessions out and deletes them, racing the people's own devices. Each action is one operation
/// through fresh flows (as one authctl command is), named `opDisable <uuid>` and so on,
/// with no session (it is not the account's own action).
extension SimulationWorld {
    static let operatorDisable = AccountDisable(reason: "simulated abuse", atMs: 0, by: "arn:aws:iam::1:user/ops")

    /// An operator that runs `count` actions on accounts the devices have reached.
    func addOperator(operations count: Int) {
        var actor = -1
        actor = scheduler.addActor { [unowned self] in
            // Support requests come about accounts that exist: wait (yielding) for the first.
            for _ in 0..<200 where sessions.isEmpty { scheduler.park(actor, calls: [], pauseMs: 100) }
            for _ in 0..<count where !sessions.isEmpty {
                operatorAction(actor, scheduler.rng.pick(sessions))
                scheduler.park(actor, calls: [], pauseMs: scheduler.rng.pick([0, 200, 2_000]))
            }
        }
    }

    /// An operator running `check --repair` `count` times while the devices work (issue 23): the
    /// walk, each account's re-read and its conditional repairs interleave with every other
    /// operation, and the run's invariants must hold after them as after any sign-in's repairs.
    func addChecker(runs count: Int) {
        var actor = -1
        actor = scheduler.addActor { [unowned self] in
            for _ in 0..<200 where sessions.isEmpty { scheduler.park(actor, calls: [], pauseMs: 100) }
            for _ in 0..<count {
                _ = run(actor, "opCheck repair", session: nil) { service throws(AccountError) in
                    let r = service.storeCheck.checkStore(StoreCheckOptions(repair: true, pageSize: 2), deadline: .none)
                    return "found \(r.findings.count), repaired \(r.findings.filter { $0.repaired == true }.count)"
                        + (r.complete ? "" : ", incomplete")
                }
                scheduler.park(actor, calls: [], pauseMs: scheduler.rng.pick([0, 200, 2_000]))
            }
        }
    }

    private func operatorAction(_ actor: Int, _ target: HeldSession) {
        let uuid = target.uuid
        switch scheduler.rng.below(100) {
        case 0..<40:
            _ = run(actor, "opDisable \(uuid)", session: nil) { service throws(AccountError) in
                try service.operatorFlow.setDisabled(uuid, Self.operatorDisable, deadline: .none)
                    ? "disabled" : "already"
            }
        case 40..<70:
            _ = run(actor, "opEnable \(uuid)", session: nil) { service throws(AccountError) in
                try service.operatorFlow.setDisabled(uuid, nil, deadline: .none) ? "enabled" : "already"
            }
        case 70..<80:
            _ = run(actor, "opRevokeOne \(uuid)", session: nil) { service throws(AccountError) in
                try service.operatorFlow.revokeSessions(
                    uuid, only: target.sessionID, reason: "operator", deadline: .none)
            }
        case 80..<92:
            _ = run(actor, "opRevoke \(uuid)", session: nil) { service throws(AccountError) in
                try service.operatorFlow.revokeSessions(uuid, only: nil, reason: "operator", deadline: .none)
            }
        default:
            let until: Deadline = scheduler.rng.chance(0.5) ? .none : Deadline(epochMilliseconds: 0)
            _ = run(actor, "opDelete \(uuid)", session: nil) { service throws(AccountError) in
                try service.operatorFlow.deleteAccount(operatorDeletes: uuid, purgeUntil: until, deadline: .none)
                    .purgeComplete
                    ? "complete" : "pending"
            }
        }
    }
}

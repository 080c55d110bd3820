import AccountTestSupport
import PlatformSupport

/// Issue 23, defect 2, in the simulation: Apple's `account-delete` of an Apple-only account racing
/// a link of Google, in the two interleavings, each with a fault forced at a step drawn
/// from the seed (so that across seeds every step of the event meets one), on top of the run's own
/// faults. `SimulationChecks.appleDeletionsSpareLinkedAccounts` checks the outcome: no deletion
/// commits while another provider is listed unless the user or an operator asked for it.
extension SimulationWorld {
    /// The steps an `account-delete` of an Apple-only account takes at most (reads, the record, the
    /// commit, the unmapping, the purge, the marker): a forced fault lands on one of them.
    static let appleDeleteSteps = 16

    /// 0: the second person's devices, one linking Google while the other's event runs (the event
    /// meets a forced fault half the time, and Apple retries what failed); 1: one device whose
    /// first delivery fails at a drawn step, then the user links Google, then Apple retries, then
    /// the scheduled run (the second reproduction).
    func addAppleDeletionRace(interleaving: Int) {
        let person = SimIdentity.people[1]
        var deleter = -1
        deleter = scheduler.addActor { [unowned self] in
            var mine: [HeldSession] = []
            signIn(deleter, person[0], intent: .auto, mine: &mine)
            guard let s = mine.first else { return }
            let jti = "jti-apple-race-\(deleter)"
            if interleaving == 0 {
                scheduler.sleep(Int64(scheduler.rng.below(3)))
                if scheduler.rng.chance(0.5) { forceFault(on: deleter) }
                if !appleAccountDelete(deleter, person[0], jti: jti) {
                    _ = appleAccountDelete(deleter, person[0], jti: jti)  // Apple retries a 5xx
                }
            } else {
                forceFault(on: deleter)
                _ = appleAccountDelete(deleter, person[0], jti: jti)
                link(deleter, s, person[1])
                _ = appleAccountDelete(deleter, person[0], jti: jti)  // Apple's retry
            }
            _ = run(deleter, "scheduled", session: nil) { service throws(AccountError) in
                let out = try service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
                return "purged \(out.purged) pending \(out.pending)"
            }
        }
        guard interleaving == 0 else { return }
        var linker = -1
        linker = scheduler.addActor { [unowned self] in
            var mine: [HeldSession] = []
            signIn(linker, person[0], intent: .auto, mine: &mine)
            guard let s = mine.first else { return }
            link(linker, s, person[1])
        }
    }

    /// The next operation of `actor` meets a fault at a step drawn from the seed.
    private func forceFault(on actor: Int) {
        let call = scheduler.rng.below(SimulationWorld.appleDeleteSteps)
        let fault = scheduler.rng.pick([Fault.notSent, .appliedAnswerLost, .conflict409, .crash])
        scheduler.forcedFaults[actor] = (call, fault)
        scheduler.note("actor \(actor): the next operation meets \(fault.rawValue) at call \(call)")
    }

    /// One delivery of Apple's `account-delete`; true when it answered (Apple stops sending it).
    private func appleAccountDelete(_ actor: Int, _ apple: SimIdentity, jti: String) -> Bool {
        run(actor, "apple account-delete", session: nil) { service throws(AccountError) in
            try service.appleEvents.handleAppleEvent(
                .accountDelete, subject: apple.sub, eventID: jti, purgeUntil: .none, deadline: .none
            ).rawValue
        } != nil
    }
}

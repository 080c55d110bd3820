import AccountTestSupport
import PlatformSupport
import StrictJSON

/// Apple's user-migration endpoint in the simulation (contract v4): a1's `transfer_sub` for the
/// recipient team is t1 and a2's t2; the recipient exchanges t1 for b1 and t2 for b2. Now and then
/// Apple refuses a user (`invalid_request`: revoked) or is unavailable (the run stops there), by
/// the run's seed.
final class SimulatedMigration: UserMigrationService {
    let draw: () -> Int

    init(draw: @escaping () -> Int) { self.draw = draw }

    func transferSubs(_ subs: [String], target: String, deadline: Deadline) -> [UserMigrationAnswer<String>] {
        subs.map { sub in
            switch draw() {
            case 0: return .unavailable("simulated 429s")
            case 1: return .refused("invalid_request")
            default:
                guard let i = SimIdentity.universe.firstIndex(where: { $0.provider == .apple && $0.sub == sub }) else {
                    return .refused("invalid_request")
                }
                return .value(SimIdentity.transferred[i].transferSub!)
            }
        }
    }

    func exchange(_ transferSubs: [String], deadline: Deadline) -> [UserMigrationAnswer<MigratedUser>] {
        transferSubs.map { t in
            if draw() == 0 { return .unavailable("simulated 503s") }
            guard let id = SimIdentity.transferred.first(where: { $0.transferSub == t }) else {
                return .refused("invalid_request")
            }
            return .value(MigratedUser(sub: id.sub, email: "\(id.sub)@privaterelay.example", isPrivateEmail: true))
        }
    }
}

/// The app moves to another Apple developer team during the run (contract v4): the operator
/// prepares the transfer (sometimes stopped midway by Apple, then resumed), the app's Apple
/// sign-ins carry the new identities from then on (one device of this story signs in at once,
/// racing the others' sign-ins, links, unlinks and deletions), and the operator completes it for
/// whoever has not signed in. Every step can meet the scheduler's faults between its writes.
extension SimulationWorld {
    static let recipientTeam = "TEAMB00001"

    func addTransferStory(person: Int) {
        var actor = -1
        actor = scheduler.addActor { [unowned self] in
            for _ in 0..<200 where sessions.isEmpty { scheduler.park(actor, calls: [], pauseMs: 100) }
            var mine: [HeldSession] = []
            for _ in 0..<(1 + scheduler.rng.below(2)) { prepare(actor) }
            transferred = true
            scheduler.note("the app moved to team \(Self.recipientTeam)")
            scheduler.park(actor, calls: [], pauseMs: scheduler.rng.pick([0, 50, 200]))
            signIn(actor, SimIdentity.people[person][0], intent: scheduler.rng.pick([.auto, .signin]), mine: &mine)
            if scheduler.rng.chance(0.6) {
                scheduler.park(actor, calls: [], pauseMs: scheduler.rng.pick([0, 100, 300]))
                _ = run(actor, "opComplete", session: nil) { service throws(AccountError) in
                    let r = try service.appleTransfer.completeAppleTransfer(
                        team: Self.recipientTeam, api: migration, batch: 2, dryRun: false, deadline: .none)
                    return "done \(r.done) already \(r.already) failed \(r.failed)" + (r.finished ? "" : ", stopped")
                }
            }
        }
    }

    private var migration: SimulatedMigration {
        SimulatedMigration { [unowned self] in scheduler.rng.below(12) }
    }

    private func prepare(_ actor: Int) {
        _ = run(actor, "opPrepare", session: nil) { service throws(AccountError) in
            let (run, _) = try service.appleTransfer.prepareAppleTransfer(
                team: Self.recipientTeam, api: migration,
                options: TransferPrepareOptions(batch: 1 + scheduler.rng.below(2), saveEveryMs: 0), deadline: .none)
            return "done \(run.done) already \(run.already) failed \(run.failed)" + (run.finished ? "" : ", stopped")
        }
    }

    /// The identity a device signs in with: its person's Apple ID after the transfer is the new
    /// one (now and then an old token still, from just before the transfer).
    func afterTransfer(_ identity: SimIdentity) -> SimIdentity {
        guard transferred, identity.provider == .apple, identity.transferSub == nil,
            let i = SimIdentity.universe.firstIndex(of: identity), scheduler.rng.chance(0.9)
        else { return identity }
        return SimIdentity.transferred[i]
    }

    /// For an operation `signIn apple:bN ...`: the account whose prepared transfer its token's
    /// `transfer_sub` names at the start, read from the stored JSON (the contract's rule, not the
    /// code's): the transfer file names it, its Apple link is prepared for that transfer and not
    /// re-keyed, it is neither deleted (nor being deleted) nor disabled, and the new `sub` has no
    /// identity file of another account.
    func transferTarget(of name: String) -> String? {
        let words = name.split(separator: " ")
        guard words.first == "signIn", words.count > 1,
            let id = SimIdentity.transferred.first(where: { $0.description == words[1] }), let t = id.transferSub,
            let uuid = scheduler.s3.text(AccountKeys.appleTransfer(t))
        else { return nil }
        if let file = scheduler.s3.text(id.key), file != uuid { return nil }
        guard let doc = scheduler.s3.json(AccountKeys.providers(uuid)), doc["deletedAt"]?.isNull ?? true,
            doc["disabled"]?.isNull ?? true, scheduler.s3.current(AccountKeys.deletion(uuid)) == nil,
            let links = doc["providers"]?.arrayValue
        else { return nil }
        let prepared = links.contains { link in
            link["type"]?.stringValue == "apple"
                && (link["transfers"]?.arrayValue ?? []).contains {
                    $0["sub"]?.stringValue == t && ($0["rekeyedFrom"]?.isNull ?? true)
                }
        }
        return prepared ? uuid : nil
    }
}

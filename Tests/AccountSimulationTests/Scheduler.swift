import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON

/// What the scheduler may do to one call instead of simply answering it.
enum Fault: String, CaseIterable {
    /// The request never arrives (connection refused, 5xx): nothing applied, the call fails.
    case notSent
    /// 503 SlowDown that outlasted the retries.
    case slowDown
    /// 409 ConditionalRequestConflict that outlasted the retries.
    case conflict409
    /// Applied, then every answer lost: the call fails although it took effect.
    case appliedAnswerLost
    /// Applied, answer lost, the transport's retry sent it again: the caller sees the retry's
    /// answer, against the state its first attempt made (412 for a conditional write).
    case appliedThenRetried
    /// The invocation's deadline: this call and every later one of the operation fail.
    case deadline
    /// The process dies: nothing more of this operation reaches S3 and no answer is given.
    case crash
}

/// One applied write, for the checks that need to know who changed what: every change, and every
/// stored PUT even of the same bytes (a conditional rewrite is a commit that changes nothing).
struct AppliedWrite {
    var op: Int
    /// The simulated clock when it was applied.
    var atMs: Int64
    var key: String
    var before: [UInt8]?
    var after: [UInt8]?
    /// Whether the operation saw its success (false: the answer was lost).
    var delivered: Bool
}

/// Deterministic simulation of concurrent account operations (FoundationDB-style): each
/// operation runs on its own thread, but only the holder of the baton runs. Every S3/STS call an
/// operation makes parks it; the scheduler then resolves pending calls one at a time, in an order
/// drawn from the seed, advancing a virtual clock, and injects faults at any call. Everything
/// random (order, faults, tokens, UUIDs, pauses) comes from the seed, so a seed replays its run.
final class Scheduler: @unchecked Sendable {
    final class Slot {
        enum State { case notStarted, running, waiting, finished }
        var state = State.notStarted
        var calls: [AWSCall] = []
        var results: [Result<AWSCallOutcome, AWSError>?] = []
        var pauseMs: Int?
        var body: () -> Void = {}
        /// The operation this actor is running, for fault attribution.
        var op: Int?
        var opDeadline: Int64 = .max
        /// Set by a deadline or crash fault: every later call of the operation fails with it.
        var dead: AWSError?
        var crashed = false
        /// The function the operation runs in: its role's grants are checked (SimulatedGrants).
        var function: SimulatedFunction?
        /// Calls of the operation resolved so far, and a fault it must meet at one of them.
        var resolved = 0
        var forced: (call: Int, fault: Fault)?
    }

    /// Faults the next operation of an actor meets at its `call`-th call (0-based), whatever the
    /// run's fault rate: a race staged at every step across seeds (SimulationWorld+AppleDeletion).
    var forcedFaults: [Int: (call: Int, fault: Fault)] = [:]

    var rng: SimulationRandom
    var clock: Int64
    let s3: SimulatedS3
    let faultRate: Double
    private let baton = Baton(holder: -1)
    private(set) var slots: [Slot] = []
    private(set) var writes: [AppliedWrite] = []
    private(set) var trace: [String] = []
    /// Faults injected per operation id.
    private(set) var faultedOps: Set<Int> = []
    private(set) var faultCount = 0
    /// Requests a function's role would not allow (each a violation: the role lacks a grant).
    private(set) var denials: [String] = []
    /// Every resolved call goes into the trace too (SIM_TRACE_CALLS=1): for reading one seed.
    var traceCalls = false

    init(seed: UInt64, s3: SimulatedS3, faultRate: Double, startMs: Int64 = 1_800_000_000_000) {
        rng = SimulationRandom(seed: seed)
        clock = startMs
        self.s3 = s3
        self.faultRate = faultRate
    }

    /// Adds an actor; `body` runs on its own thread once the run starts.
    func addActor(_ body: @escaping () -> Void) -> Int {
        let slot = Slot()
        slot.body = body
        slots.append(slot)
        return slots.count - 1
    }

    func note(_ line: String) { trace.append("[\(clock)] " + line) }

    // MARK: the actors' side (called on an actor's thread while it holds the baton)

    func backend(for actor: Int) -> AccountBackend { ActorBackend(scheduler: self, actor: actor) }

    func environment(for actor: Int) -> AccountEnvironment {
        AccountEnvironment(
            now: { [unowned self] in clock }, randomBytes: { [unowned self] in rng.bytes($0) },
            pause: { [unowned self] ms in park(actor, calls: [], pauseMs: ms) })
    }

    func beginOperation(_ actor: Int, id: Int, deadlineMs: Int64) {
        let s = slots[actor]
        s.op = id
        s.opDeadline = clock + deadlineMs
        s.dead = nil
        s.crashed = false
        s.resolved = 0
        s.forced = forcedFaults.removeValue(forKey: actor)
    }

    /// Whether the operation's process died (its answer must be ignored).
    func endOperation(_ actor: Int) -> Bool {
        let s = slots[actor]
        defer {
            s.op = nil
            s.dead = nil
            s.crashed = false
            s.function = nil
        }
        return s.crashed
    }

    func park(_ actor: Int, calls: [AWSCall], pauseMs: Int? = nil) {
        let s = slots[actor]
        s.calls = calls
        s.results = Array(repeating: nil, count: calls.count)
        s.pauseMs = pauseMs
        s.state = .waiting
        baton.pass(to: -1, thenWaitAs: actor)
    }

    // MARK: the scheduler's side

    /// Runs every actor to completion.
    func run(maxSteps: Int = 200_000) {
        let threads = slots.indices.map { i in
            SimulationThread { [unowned self] in
                baton.wait(as: i)
                slots[i].body()
                slots[i].state = .finished
                baton.pass(to: -1)
            }
        }
        var steps = 0
        while steps < maxSteps {
            steps += 1
            var candidates: [(Int, Int?)] = []
            for (i, s) in slots.enumerated() {
                switch s.state {
                case .notStarted: candidates.append((i, nil))
                case .waiting:
                    if s.calls.isEmpty { candidates.append((i, nil)) }
                    for k in s.calls.indices where s.results[k] == nil { candidates.append((i, k)) }
                case .running, .finished: break
                }
            }
            guard !candidates.isEmpty else { break }
            let (i, k) = rng.pick(candidates)
            let s = slots[i]
            clock += Int64(1 + rng.below(30))
            if s.state == .notStarted {
                s.state = .running
                baton.pass(to: i, thenWaitAs: -1)
                continue
            }
            if let k {
                s.results[k] = resolve(s, s.calls[k])
                if traceCalls { note("  op \(s.op ?? -1): \(describe(s.calls[k])) → \(brief(s.results[k]!))") }
            }
            if let pause = s.pauseMs { clock += Int64(pause) }
            if s.results.allSatisfy({ $0 != nil }) {
                s.state = .running
                baton.pass(to: i, thenWaitAs: -1)
            }
        }
        precondition(
            slots.allSatisfy { $0.state == .finished }, "the simulation did not finish within \(maxSteps) steps")
        for thread in threads { thread.join() }
    }

    private func resolve(_ s: Slot, _ call: AWSCall) -> Result<AWSCallOutcome, AWSError> {
        let op = s.op ?? -1
        if let dead = s.dead { return .failure(dead) }
        if let function = s.function, let why = SimulatedGrants.refusal(of: call, by: function) {
            denials.append("op \(op): \(why)")
            return .failure(AWSError(kind: .accessDenied, code: "AccessDenied", message: "simulated", status: 403))
        }
        if clock > s.opDeadline {
            s.dead = AWSError(kind: .unavailable, message: "deadline reached before the request could be sent")
            return .failure(s.dead!)
        }
        s.resolved += 1
        var fault: Fault
        if let forced = s.forced, forced.call == s.resolved - 1 {
            fault = forced.fault
            s.forced = nil
        } else {
            guard rng.chance(faultRate) else { return apply(call, op: op, delivered: true) }
            fault = rng.pick(Fault.allCases)
        }
        if case .assumeRole = call, fault == .conflict409 { fault = .slowDown }
        faultedOps.insert(op)
        faultCount += 1
        note("op \(op): \(fault.rawValue) on \(describe(call))")
        switch fault {
        case .notSent: return .failure(AWSError(kind: .unavailable, message: "simulated: not sent"))
        case .slowDown:
            return .failure(AWSError(kind: .throttled, code: "SlowDown", message: "simulated: slow down", status: 503))
        case .conflict409:
            return .failure(
                AWSError(kind: .conflict, code: "ConditionalRequestConflict", message: "simulated: 409", status: 409))
        case .appliedAnswerLost:
            _ = apply(call, op: op, delivered: false)
            return .failure(AWSError(kind: .unavailable, message: "simulated: answer lost"))
        case .appliedThenRetried:
            _ = apply(call, op: op, delivered: false)
            return apply(call, op: op, delivered: true)
        case .deadline:
            s.dead = AWSError(kind: .unavailable, message: "simulated: deadline")
            return .failure(s.dead!)
        case .crash:
            s.crashed = true
            s.dead = AWSError(kind: .unavailable, message: "simulated: crashed")
            return .failure(s.dead!)
        }
    }

    private func apply(_ call: AWSCall, op: Int, delivered: Bool) -> Result<AWSCallOutcome, AWSError> {
        let key: String?
        switch call {
        case .s3Put(let p): key = p.key
        case .s3Delete(let k, _): key = k
        default: key = nil
        }
        let before = key.flatMap { s3.current($0)?.body }
        let result = s3.apply(call)
        if let key {
            let after = s3.current(key)?.body
            var stored = false
            if case .success(.stored(.stored)) = result { stored = true }
            if before != after || (before == nil) != (after == nil) || stored {
                writes.append(
                    AppliedWrite(op: op, atMs: clock, key: key, before: before, after: after, delivered: delivered))
            }
        }
        return result
    }

    func brief(_ r: Result<AWSCallOutcome, AWSError>) -> String {
        switch r {
        case .failure(let e): return "error \(e.kind)"
        case .success(.object(let o)):
            return o.map {
                "\($0.body.count) bytes \($0.metadata.first { $0.0 == "link-id" }.map { "link " + $0.1.prefix(6) } ?? "")"
            } ?? "absent"
        case .success(.stored(let s)): return "\(s)"
        case .success(.deleted(let d)): return "\(d)"
        case .success(.listing(let l)): return "\(l.keys.count) keys, \(l.commonPrefixes.count) prefixes"
        case .success(.credentials): return "credentials"
        case .success(.versions(let v)): return "\(v.versions.count) versions"
        case .success(.deletedVersions(let d)): return "\(d.deleted) deleted"
        case .success(.uploads(let u)): return "\(u.uploads.count) uploads"
        }
    }

    func describe(_ call: AWSCall) -> String {
        switch call {
        case .s3Get(let k): return "GET \(k)"
        case .s3Put(let p):
            let link = p.metadata.first { $0.0 == "link-id" }.map { " link " + $0.1.prefix(6) } ?? ""
            var detail = ""
            if p.key.hasSuffix("providers.json"),
                let doc = (try? JSONParser.parse(p.body)).flatMap(ProvidersDocument.init(json:))
            {
                detail =
                    " [" + doc.providers.map { "\($0.id)/\($0.linkID?.prefix(6) ?? "-")" }.joined(separator: ",")
                    + "] pending ["
                    + doc.pending.map { "\($0.id)/\($0.linkID.prefix(6))" }.joined(separator: ",") + "] retired ["
                    + doc.retired.map { "\($0.id)/\($0.linkID?.prefix(6) ?? "-")" }.joined(separator: ",") + "]"
            }
            return "PUT \(p.key) \(p.condition)\(link)\(detail)"
        case .s3Delete(let k, let c): return "DELETE \(k) \(c)"
        case .s3List(let p, let after): return "LIST \(p)" + (after.map { " AFTER \($0)" } ?? "")
        case .s3ListPage(let r): return "LIST \(r.prefix) DELIMITER \(r.delimiter ?? "-") PAGE \(r.pageSize)"
        case .s3ListVersions(let p, _): return "LIST VERSIONS \(p)"
        case .s3DeleteVersions(let v): return "DELETE \(v.count) VERSIONS"
        case .s3DeleteListedVersion(let v): return "DELETE VERSION \(v.key.debugDescription)"
        case .s3ListUploads(let p, _): return "LIST UPLOADS \(p)"
        case .s3AbortUpload(let u): return "ABORT UPLOAD \(u.key.debugDescription)"
        case .assumeRole: return "AssumeRole"
        }
    }
}

/// An actor's view of the backend: every round parks the actor until the scheduler has answered
/// each call.
final class ActorBackend: AccountBackend {
    let scheduler: Scheduler
    let actor: Int

    init(scheduler: Scheduler, actor: Int) {
        self.scheduler = scheduler
        self.actor = actor
    }

    func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>] {
        scheduler.park(actor, calls: calls)
        let slot = scheduler.slots[actor]
        return slot.results.map { $0! }
    }
}

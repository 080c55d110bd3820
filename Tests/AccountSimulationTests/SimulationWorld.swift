import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import TokenVerification

/// One identity of the simulated people: a provider and a `sub`.
struct SimIdentity: Hashable, CustomStringConvertible {
    let provider: IdentityProvider
    let sub: String
    /// After an app transfer (SimulationWorld+Transfer.swift): the `transfer_sub` the recipient
    /// team's tokens carry for this user.
    var transferSub: String? = nil

    var verified: VerifiedIdentity {
        VerifiedIdentity(
            provider: provider, subject: sub, email: "\(sub)@example.com", emailVerified: true, name: "User \(sub)",
            transferSub: transferSub)
    }

    var key: String { AccountKeys.identity(provider, sub) }
    var description: String { "\(provider.rawValue):\(sub)" }

    /// Two Apple and three Google identities: enough for every conflict the rules forbid.
    static let universe = [
        SimIdentity(provider: .apple, sub: "a1"), SimIdentity(provider: .apple, sub: "a2"),
        SimIdentity(provider: .google, sub: "g1"), SimIdentity(provider: .google, sub: "g2"),
        SimIdentity(provider: .google, sub: "g3"),
    ]

    /// The providers the people use. Firebase is left out: the domain treats every provider
    /// alike (one identity per provider type per account), so a third type adds no interleaving
    /// the first two lack; and drawing from this fixed pair keeps every seed replaying the run it
    /// made before Firebase existed.
    static let providers: [IdentityProvider] = [.apple, .google]

    /// Two people: the first has an Apple ID and two Google accounts (so two of their own links
    /// can race for one slot), the second an Apple ID and one Google account.
    static let people = [[universe[0], universe[2], universe[3]], [universe[1], universe[4]]]

    /// The two Apple IDs after the app moved to another team (contract v4): new `sub`s b1 and b2,
    /// whose tokens carry the transfer identifiers t1 and t2 (for the recipient team) of a1 and a2.
    static let transferred = [
        SimIdentity(provider: .apple, sub: "b1", transferSub: "t1"),
        SimIdentity(provider: .apple, sub: "b2", transferSub: "t2"),
    ]

    /// Every identity a run can meet: the checks walk these.
    static let all = universe + transferred
}

/// A session as a client device holds it: every token the service delivered for it, and the one
/// the client would present now (an answer the client dropped leaves it on the older one).
final class HeldSession {
    let uuid: String
    let sessionID: String
    let identity: SimIdentity
    var delivered: [String]
    var held: String
    /// The providers the last answer showed (what an app's settings screen would offer).
    var shownProviders: Set<IdentityProvider>
    /// When the sign-in that made it answered.
    var signedInEndMs: Int64 = 0
    /// The token held before the last adoption: what an extension that read the store a moment
    /// before the app stored its refresh still has.
    var heldBefore: String?
    /// Whether only this device ever presented the session's tokens, and only the newest it held
    /// (no thief, no replay, no stale extension): contract v5 says such a client is never
    /// revoked, whatever its delays, lost answers and deaths.
    var honest = true

    /// The client read the answer that carried `token`: it holds it from now on.
    func adopt(_ token: String) {
        heldBefore = held
        held = token
    }

    init(uuid: String, sessionID: String, identity: SimIdentity, token: String) {
        self.uuid = uuid
        self.sessionID = sessionID
        self.identity = identity
        delivered = [token]
        held = token
        shownProviders = [identity.provider]
    }
}

/// One operation of the run, as the checks see it.
struct OpRecord {
    enum Outcome {
        case success(String)
        case failure(AccountError)
        /// The process died: the client got no answer.
        case crashed
    }

    let id: Int
    let actor: Int
    let name: String
    let startMs: Int64
    var endMs: Int64 = 0
    var outcome: Outcome = .crashed
    var session: HeldSession?
    var forged = false
    /// The presented session's link was already retired when the operation started.
    var identityRetiredAtStart = false
    /// For link: the identity linked.
    var linked: SimIdentity?
    /// For unlink: the provider, and its identity files that mapped to the account at the start
    /// (identity → link id) and at the answer.
    var unlinked: IdentityProvider?
    var filesAtStart: [SimIdentity: String] = [:]
    var filesAtEnd: [SimIdentity: String] = [:]
    /// For refresh: the presented token was one this session delivered and has since replaced,
    /// outside every grace window (by the stored record at the start): reuse.
    var reuseAtStart = false
    /// The same judged at the answer, whatever revoked the session since (reuse only grows: a
    /// token that was reuse when the function read the record still is).
    var reuseAtEnd = false
    /// The token this operation presented, when it is one of the session's.
    var presented: String?
    var revokedAtEnd = false
    /// For a sign-in that succeeded: the account it reached.
    var reached: String?
    /// For a sign-in with a transferred Apple identity: the account its prepared transfer named
    /// at the start (read from the stored JSON), which it must reach (SimulationChecks+Transfer).
    var transferTarget: String?
    /// For a purchase claim or an App Store notification: the purchase, and when its data was signed.
    var purchase: String?
    var signedDateMs: Int64?
    /// For one of Google's security events: the event.
    var googleEvent: SimulationWorld.GoogleEvent?

    var succeeded: Bool { if case .success = outcome { return true } else { return false } }
}

/// The simulated people and their devices: which operations they run, what they hold.
final class SimulationWorld: @unchecked Sendable {
    /// What a successful `list` answers when it marks exactly the presented session current.
    static let listMarksItsOwn = "marks its own session current"
    let scheduler: Scheduler
    let settings: AccountSettings
    private(set) var records: [OpRecord] = []
    private(set) var sessions: [HeldSession] = []
    /// Deletions set up to fail every time (SimulationWorld+Deletion.swift).
    var poisonedDeletions: Set<String> = []
    /// The app moved to another Apple team (SimulationWorld+Transfer.swift): Apple sign-ins carry
    /// the new identities from then on.
    var transferred = false
    /// Google's security events, as delivered (SimulationWorld+GoogleEvents.swift).
    var googleEvents: [GoogleEvent] = []
    private var nextOp = 0

    init(scheduler: Scheduler, settings: AccountSettings) {
        self.scheduler = scheduler
        self.settings = settings
    }

    /// A device of `person` that runs `count` random operations.
    func addDevice(person: Int, operations count: Int) {
        var actor = -1
        actor = scheduler.addActor { [unowned self] in
            var mine: [HeldSession] = []
            let own = SimIdentity.people[person]
            // The usual opening: sign in with the person's Apple ID, often link a Google account at
            // once; devices start together, so these race each other.
            if scheduler.rng.chance(0.7) {
                signIn(actor, own[0], intent: .auto, mine: &mine)
                if let s = mine.first, scheduler.rng.chance(0.6) {
                    link(actor, s, scheduler.rng.pick(Array(own.dropFirst())))
                }
            }
            for _ in 0..<count { runRandomOperation(actor: actor, person: own, mine: &mine) }
        }
    }

    /// Mostly the person's own identities, sometimes anyone's.
    private func someIdentity(_ own: [SimIdentity]) -> SimIdentity {
        scheduler.rng.chance(0.8) ? scheduler.rng.pick(own) : scheduler.rng.pick(SimIdentity.universe)
    }

    private func runRandomOperation(actor: Int, person: [SimIdentity], mine: inout [HeldSession]) {
        if mine.isEmpty || scheduler.rng.chance(0.15) {
            signIn(
                actor, someIdentity(person), intent: scheduler.rng.pick([SignInIntent.auto, .auto, .signin, .signup]),
                mine: &mine)
            return
        }
        let s = scheduler.rng.pick(mine)
        // An account with two providers is where unlinking happens.
        var choice = scheduler.rng.below(100)
        // Now and then: delete the account (half of these), one of Apple's events, the schedule.
        if scheduler.rng.chance(0.06) { choice = 96 + scheduler.rng.below(4) }
        // What the user's own credentials write (keys with control characters, uploads).
        if scheduler.rng.chance(0.08) {
            userWrite(actor: actor, session: s)
            return
        }
        // Purchases: claims from any device, and the App Store's notifications about them.
        if scheduler.rng.chance(0.12) {
            purchaseOperation(actor: actor, session: s)
            return
        }
        // A phone's life (v5): a refresh interrupted for minutes to hours; an extension a moment stale.
        if scheduler.rng.chance(0.05) {
            scheduler.rng.chance(0.7)
                ? interruptedRefresh(actor: actor, session: s) : staleExtension(actor: actor, session: s)
            return
        }
        if s.shownProviders.count > 1 && scheduler.rng.chance(0.35) { choice = 52 }
        switch choice {
        case 0..<30:
            let drop = scheduler.rng.chance(0.1)
            if let token = run(
                actor, "refresh", session: s, presenting: s.held,
                { service throws(AccountError) in
                    let out = try service.sessions.refresh(token: s.held, deadline: .none)
                    s.shownProviders = Set(out.account.providers.providers.map(\.type))
                    return out.session.refreshToken.value
                })
            {
                s.delivered.append(token)
                if !drop { s.adopt(token) }
            }
        case 30..<38:
            _ = run(actor, "signOut", session: s) { service throws(AccountError) in
                try service.sessions.signOut(token: s.held, deadline: .none)
            }
        case 38..<52:
            // Like an app's settings screen: offer what the account lacks, mostly.
            let missing = person.filter { !s.shownProviders.contains($0.provider) }
            link(
                actor, s,
                !missing.isEmpty && scheduler.rng.chance(0.7) ? scheduler.rng.pick(missing) : someIdentity(person))
        case 52..<62:
            let shown = s.shownProviders.filter { $0 != s.identity.provider }
            let provider =
                !shown.isEmpty && scheduler.rng.chance(0.8)
                ? scheduler.rng.pick(Array(shown).sorted { $0.rawValue < $1.rawValue })
                : scheduler.rng.pick(SimIdentity.providers)
            _ = run(actor, "unlink \(provider.rawValue)", session: s, unlinked: provider) {
                service throws(AccountError) in
                let out = try service.links.unlink(token: s.held, provider: provider, deadline: .none)
                s.shownProviders = Set(out.account.providers.providers.map(\.type))
                return out.status.rawValue
            }
        case 62..<67:
            _ = run(actor, "list", session: s) { service throws(AccountError) in
                let current = try service.sessions.listSessions(token: s.held, deadline: .none).filter(\.isCurrent)
                return current.map(\.sessionID) == [s.sessionID]
                    ? SimulationWorld.listMarksItsOwn : "marks \(current.map { $0.sessionID.prefix(6) }) current"
            }
        case 67..<72:
            _ = run(actor, "signOutOthers", session: s) { service throws(AccountError) in
                try service.sessions.signOutOthers(token: s.held, deadline: .none)
            }
        case 72..<77:
            let target = sessions.isEmpty ? s : scheduler.rng.pick(sessions)
            _ = run(actor, "signOutSession \(target.sessionID.prefix(6))", session: s) { service throws(AccountError) in
                try service.sessions.signOutSession(token: s.held, sessionID: target.sessionID, deadline: .none)
            }
        case 77..<87:
            let forged = forge(s.held)
            let action = scheduler.rng.below(5)
            _ = run(actor, "forged \(action)", session: s, forged: true) { service throws(AccountError) -> String in
                switch action {
                case 0: _ = try service.sessions.refresh(token: forged, deadline: .none)
                case 1: try service.sessions.signOut(token: forged, deadline: .none)
                case 2:
                    _ = try service.links.link(
                        token: forged, identity: SimIdentity.universe[2].verified, deadline: .none)
                case 3: _ = try service.links.unlink(token: forged, provider: .apple, deadline: .none)
                default: _ = try service.sessions.signOutOthers(token: forged, deadline: .none)
                }
                return "accepted"
            }
        case 87..<92 where sessions.count > 1:
            // A thief with a copy of some device's token races its owner: often the token the
            // owner has just rotated out (copied a moment before), so the thief's refresh is a
            // grace rotation and the owner's current token becomes superseded.
            let victim = scheduler.rng.pick(sessions)
            victim.honest = false
            let stolen =
                victim.delivered.count > 1 && scheduler.rng.chance(0.5)
                ? victim.delivered[victim.delivered.count - 2] : victim.held
            if let token = run(
                actor, "steal", session: victim, presenting: stolen,
                { service throws(AccountError) in
                    try service.sessions.refresh(token: stolen, deadline: .none).session.refreshToken.value
                })
            {
                victim.delivered.append(token)
            }
        case 92..<96 where s.delivered.count > 1:
            let old = scheduler.rng.pick(Array(s.delivered.dropLast()))
            s.honest = false
            if let token = run(
                actor, "replay", session: s, presenting: old,
                { service throws(AccountError) in
                    try service.sessions.refresh(token: old, deadline: .none).session.refreshToken.value
                })
            {
                s.delivered.append(token)
            }
        case 96..<98:
            // Deleting the account; half the time with too little time to purge it all.
            let until: Deadline = scheduler.rng.chance(0.5) ? .none : Deadline(epochMilliseconds: 0)
            _ = run(actor, "delete", session: s) { service throws(AccountError) in
                let out = try service.deletion.deleteAccount(token: s.held, purgeUntil: until, deadline: .none)
                return out.purgeComplete ? "complete" : "pending"
            }
        case 98..<99:
            // Apple tells about the person's Apple ID (a replayed event now and then).
            let event = scheduler.rng.pick(AppleAccountEvent.allCases)
            let jti = scheduler.rng.chance(0.2) ? "jti-replayed" : "jti-\(scheduler.rng.below(1_000_000))"
            let apple = person[0]
            _ = run(actor, "apple \(event.rawValue)", session: nil) { service throws(AccountError) in
                try service.appleEvents.handleAppleEvent(
                    event, subject: apple.sub, eventID: jti, purgeUntil: .none, deadline: .none
                ).rawValue
            }
        case 99..<100:
            _ = run(actor, "scheduled", session: nil) { service throws(AccountError) in
                let out = try service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
                return "purged \(out.purged) pending \(out.pending)"
            }
        default:
            let ms = Int64(scheduler.rng.pick([500, 2_000, 2_000, 40_000, 40_000, 700_000]))
            scheduler.note("actor \(actor) sleeps \(ms) ms")
            scheduler.sleep(ms)
        }
    }

    func signIn(_ actor: Int, _ identity: SimIdentity, intent: SignInIntent, mine: inout [HeldSession]) {
        let identity = afterTransfer(identity)
        let device = scheduler.rng.chance(0.5) ? "device \(actor)" : nil
        let out = run(actor, "signIn \(identity) \(intent)", session: nil) { service throws(AccountError) in
            let out = try service.signIn.signIn(
                identity: identity.verified, intent: intent, fullName: nil, device: device, deadline: .none)
            return (
                out.account.serviceUserID, out.session.refreshToken, Set(out.account.providers.providers.map(\.type))
            )
        }
        if let (uuid, token, shown) = out {
            records[records.count - 1].reached = uuid
            let held = HeldSession(uuid: uuid, sessionID: token.sessionID, identity: identity, token: token.value)
            held.shownProviders = shown
            held.signedInEndMs = records[records.count - 1].endMs
            mine.append(held)
            sessions.append(held)
        }
    }

    func link(_ actor: Int, _ s: HeldSession, _ target: SimIdentity) {
        _ = run(actor, "link \(target)", session: s, linked: target) { service throws(AccountError) in
            let out = try service.links.link(token: s.held, identity: target.verified, deadline: .none)
            s.shownProviders = Set(out.account.providers.providers.map(\.type))
            return out.status.rawValue
        }
    }

    /// Runs one operation through fresh flows over a fresh store (a new invocation) and records it.
    func run<T>(
        _ actor: Int, _ name: String, session: HeldSession?, forged: Bool = false, linked: SimIdentity? = nil,
        unlinked: IdentityProvider? = nil, presenting: String? = nil, purchase: String? = nil,
        signedDateMs: Int64? = nil, googleEvent: GoogleEvent? = nil, _ body: (AccountFlows) throws(AccountError) -> T
    ) -> T? {
        let id = nextOp
        nextOp += 1
        var record = OpRecord(
            id: id, actor: actor, name: name, startMs: scheduler.clock, session: session, forged: forged, linked: linked
        )
        record.unlinked = unlinked
        (record.purchase, record.signedDateMs) = (purchase, signedDateMs)
        record.googleEvent = googleEvent
        if let session { record.identityRetiredAtStart = linkRetired(session) }
        if let unlinked, let session { record.filesAtStart = files(of: unlinked, mappingTo: session.uuid) }
        record.transferTarget = transferTarget(of: name)
        // Whatever presents a session's token counts (v5 revokes only for cause, whatever the action).
        let presenting = presenting ?? (forged ? nil : session?.held)
        if let presenting, let session {
            record.reuseAtStart = isReuse(presenting, session)
            record.presented = presenting
        }
        scheduler.note("op \(id) actor \(actor): \(name) starts")
        scheduler.beginOperation(actor, id: id, deadlineMs: 10_000)
        scheduler.slots[actor].function = SimulatedFunction(operation: name)
        let service = AccountFlows(
            backend: scheduler.backend(for: actor), settings: settings, environment: scheduler.environment(for: actor))
        var value: T?
        do throws(AccountError) {
            value = try body(service)
            record.outcome = .success("\(value!)")
        } catch {
            record.outcome = .failure(error)
        }
        if scheduler.endOperation(actor) {
            record.outcome = .crashed
            value = nil
        }
        record.endMs = scheduler.clock
        if let unlinked, let session { record.filesAtEnd = files(of: unlinked, mappingTo: session.uuid) }
        if let presenting, let session { record.reuseAtEnd = isReuse(presenting, session, evenIfRevoked: true) }
        if let session {
            // A deleted record (list clears ended ones) is as revoked as a session can be.
            let stored = scheduler.s3.json(AccountKeys.session(session.uuid, session.sessionID))
            record.revokedAtEnd = stored.map { !($0["revokedAt"]?.isNull ?? true) } ?? true
        }
        scheduler.note("op \(id) actor \(actor): \(name) → \(record.outcome)")
        records.append(record)
        return value
    }

    /// Whether the session's link (as its record names it now) is among its account's retired
    /// links (read from the stored JSON, not through the code under test).
    private func linkRetired(_ s: HeldSession) -> Bool {
        guard
            let linkID = scheduler.s3.json(AccountKeys.session(s.uuid, s.sessionID))?["identity"]?["linkID"]?
                .stringValue,
            let doc = scheduler.s3.json(AccountKeys.providers(s.uuid)).flatMap(StoredAccount.init(json:))
        else { return false }
        return doc.retired.contains { $0.linkID == linkID } && !doc.follows(s.identity, linkID: linkID)
    }

    /// The contract's reuse rule (v5), judged from the stored record and what the session
    /// delivered: a token it delivered that is neither current, nor the just-rotated one within
    /// the grace or while the current token is unpresented, nor superseded within the grace of
    /// when it was superseded.
    func isReuse(_ token: String, _ s: HeldSession, evenIfRevoked: Bool = false) -> Bool {
        guard s.delivered.contains(token),
            let o = scheduler.s3.json(AccountKeys.session(s.uuid, s.sessionID))?.objectValue,
            evenIfRevoked || o["revokedAt"]?.isNull ?? true,
            let expires = o["expiresAt"]?.stringValue.flatMap(ISO8601.parse), scheduler.clock < expires
        else { return false }
        let hash = RefreshToken.parse(token)!.hash
        func within(_ since: Int64?) -> Bool {
            since.map { scheduler.clock - $0 <= settings.refreshReuseGraceSeconds * 1000 } ?? false
        }
        if o["current"]?["hash"]?.stringValue == hash { return false }
        let rotatedAt = o["previous"]?["rotatedAt"]?.stringValue.flatMap(ISO8601.parse)
        if o["previous"]?["hash"]?.stringValue == hash {
            // `presentedAt` null: not presented; absent (a record from before v5): presented.
            let unpresented = o["current"]?["presentedAt"]?.isNull ?? false
            return !(within(rotatedAt) || unpresented)
        }
        let superseded = o["superseded"]?.arrayValue?.map { $0.stringValue } ?? []
        guard let index = superseded.firstIndex(of: hash) else { return true }
        let times = o["supersededAt"]?.arrayValue?.compactMap { $0.stringValue.flatMap(ISO8601.parse) } ?? []
        return !within(times.count == superseded.count ? times[index] : rotatedAt)
    }

    private func files(of provider: IdentityProvider, mappingTo uuid: String) -> [SimIdentity: String] {
        var out: [SimIdentity: String] = [:]
        for id in SimIdentity.all where id.provider == provider {
            guard let v = scheduler.s3.current(id.key), String(decoding: v.body, as: UTF8.self) == uuid else {
                continue
            }
            out[id] = v.metadata.first { $0.0 == AccountKeys.linkIDMetadata }?.1 ?? "-"
        }
        return out
    }

    /// The token with one bit of its secret flipped: the real account and session inside.
    func forge(_ token: String) -> String {
        var raw = Base64.urlDecode(token.dropFirst(RefreshToken.prefix.count))!
        raw[63] ^= 0x01
        return RefreshToken.prefix + Base64.urlEncode(raw)
    }
}

extension Scheduler {
    /// Time passes for everyone (a device idle between operations); operations in flight keep
    /// their remaining time.
    func sleep(_ ms: Int64) {
        clock += ms
        for s in slots where s.op != nil { s.opDeadline += ms }
    }
}

import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import TokenVerification

/// The invariants of the contract (docs/API.md) checked after every simulated run:
/// 1. operations: no unclassified error (a bug); a forged token changed nothing; a refresh that
///    answered failure spent nothing; no refresh succeeded for a session whose link was already
///    retired when it started; a link that answered success stays listed unless an unlink retired
///    it; a replaced token presented outside the grace windows revokes the session (reuse); an
///    unlink never answers PROVIDER_NOT_LINKED while an identity file of that provider maps
///    to the account from its start to its answer; a session is revoked for reuse only for
///    cause, and never when its device only presented its newest token (v5,
///    SimulationChecks+PhoneLife.swift);
/// 2. state: every listed identity has its identity file naming this account and link; at most one
///    identity per provider per account; every account keeps a provider; every identity file is
///    listed (only a run with faults may leave pending or stale files, for the next reader to repair);
/// 3. sessions: each delivered token that is its session's current one refreshes iff the session
///    is live and its identity still linked; every token of a dead session is refused;
/// 4. repair: a fault-free sign-in with every identity answers what the state says (and repairs
///    it), after which check 2 holds without exception.
///
/// The checks read the stored JSON themselves (`StoredAccount`), never through the code under test.
struct SimulationChecks {
    let world: SimulationWorld
    var violations: [String] = []

    var s3: SimulatedS3 { world.scheduler.s3 }

    init(world: SimulationWorld) { self.world = world }

    mutating func run() -> [String] {
        operations()
        deletedAccountsUnreached()
        noCommitWhileDisabled()
        operatorActions()
        googleEventsObeyed()
        state(strict: world.scheduler.faultCount == 0, phase: "after the run")
        suspensionsAgree(strict: world.scheduler.faultCount == 0, phase: "after the run")
        purchaseStates(phase: "after the run")
        deletedAccountsUnmapped(phase: "after the run", answeredOnly: true, strict: world.scheduler.faultCount == 0)
        appleEventsNeverDropped()
        appleDeletionsSpareLinkedAccounts()
        revocationsForCause()
        world.scheduler.sleep((world.settings.refreshReuseGraceSeconds + 1) * 1000)
        finishDeletions()
        // Before any repairing sign-in (settle), which would hide what the service left behind.
        deletedAccountsUnmapped(phase: "after the scheduled runs", answeredOnly: false, strict: true)
        purchases()
        sessions()
        transferSignIns()
        settle()
        state(strict: true, phase: "after repair")
        suspensionsAgree(strict: true, phase: "after repair")
        purchaseStates(phase: "after repair")
        transferFilesSettled()
        deletionsComplete()
        return violations
    }

    // MARK: deletion

    /// Accounts being deleted: a deletion record (the intent; a sign-in already treats the account
    /// as deleted, and the scheduled run commits a deletion that stopped before its commit), or
    /// `deletedAt` in providers.json.
    var deletedAccounts: Set<String> {
        Set(
            s3.keys.filter { $0.hasPrefix("deletions/") }.compactMap { key -> String? in
                s3.json(key)?.objectValue?["serviceUserID"]?.stringValue
            }
        ).union(
            s3.keys.filter { $0.hasSuffix("/account/providers.json") && !(s3.json($0)?["deletedAt"]?.isNull ?? true) }
                .map { String($0.dropFirst("users/".count).prefix(36)) }
        ).subtracting(world.poisonedDeletions)
    }

    /// After a deletion answered, no operation that started later reached the old account
    /// (signing out one of its sessions answers `signedOut` as for any ended session).
    private mutating func deletedAccountsUnreached() {
        for d in world.records where d.name == "delete" && d.succeeded {
            guard let uuid = d.session?.uuid else { continue }
            for r in world.records
            where r.startMs > d.endMs && r.succeeded
                && (r.reached == uuid || (r.session?.uuid == uuid && r.name != "delete" && r.name != "signOut"))
            {
                fail("op \(r.id) \(r.name) reached account \(uuid.prefix(8)) after its deletion (op \(d.id)) answered")
            }
        }
    }

    /// The scheduled run, fault-free, until every deletion is through its second pass (bounded).
    private mutating func finishDeletions() {
        let service = world.settleService()
        world.scheduler.sleep(Int64(world.settings.credentialsDurationSeconds) * 1000 + 120_000)
        for _ in 0..<3 {
            do throws(AccountError) {
                let out = try service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
                // A poisoned deletion stays pending; every healthy one must finish whatever it does.
                if out.pending == world.poisonedDeletions.count { return }
                world.scheduler.sleep(Int64(world.settings.credentialsDurationSeconds) * 1000 + 120_000)
            } catch {
                fail("the scheduled run answered \(error)")
                return
            }
        }
        fail("deletions still pending after three fault-free scheduled runs")
    }

    /// Nothing of a deleted account is left: no version under its prefix, no identity file.
    private mutating func deletionsComplete() {
        for uuid in deletedAccounts.sorted() {
            let left = s3.versions(under: AccountKeys.userPrefix(uuid))
            if left > 0 { fail("deleted account \(uuid.prefix(8)) still has \(left) versions under users/") }
            for key in s3.keys where key.hasPrefix("identities/") && s3.text(key) == uuid {
                fail("\(key) still names deleted account \(uuid.prefix(8))")
            }
            if s3.json(AccountKeys.deletion(uuid))?["secondPassDoneAt"]?.isNull ?? true {
                fail("the deletion of \(uuid.prefix(8)) is not through its second pass")
            }
        }
    }

    mutating func fail(_ text: String) { violations.append(text) }
    mutating func report(_ text: String) { violations.append(text) }

    // MARK: 1. operations

    private mutating func operations() {
        let writes = world.scheduler.writes
        for r in world.records {
            if case .failure(let e) = r.outcome {
                switch e {
                case .internalError, .corruptDocument: fail("op \(r.id) \(r.name): unclassified error \(e)")
                default: break
                }
            }
            if r.name == "list", case .success(let answer) = r.outcome, answer != SimulationWorld.listMarksItsOwn {
                fail("op \(r.id) list: answered success but \(answer), not its own session")
            }
            if r.forged {
                if r.succeeded { fail("op \(r.id) \(r.name): a forged token was accepted") }
                if let w = writes.first(where: { $0.op == r.id }) {
                    fail("op \(r.id) \(r.name): a forged token changed \(w.key)")
                }
            }
            let isRefresh = r.name == "refresh" || r.name == "replay" || r.name == "steal"
            if isRefresh, case .failure = r.outcome, let s = r.session {
                let key = AccountKeys.session(s.uuid, s.sessionID)
                for w in writes
                where w.op == r.id && w.key == key && w.delivered && currentHash(w.before) != currentHash(w.after) {
                    fail("op \(r.id) \(r.name): answered failure but rotated the session (its token is spent)")
                }
            }
            if case .failure(.providerNotLinked) = r.outcome {
                for (id, linkID) in r.filesAtStart where r.filesAtEnd[id] == linkID {
                    fail(
                        "op \(r.id): unlink answered PROVIDER_NOT_LINKED while \(id)'s identity file still maps to the account"
                    )
                }
            }
            if isRefresh && r.reuseAtStart {
                if r.succeeded { fail("op \(r.id) \(r.name): a replaced token refreshed (reuse not detected)") }
                if case .failure(.sessionInvalid) = r.outcome, !r.revokedAtEnd {
                    fail("op \(r.id) \(r.name): reuse of a replaced token did not revoke the session")
                }
            }
            if isRefresh && r.identityRetiredAtStart && r.succeeded {
                fail("op \(r.id): a session of an unlinked identity refreshed")
            }
            // An app transfer may have re-keyed the linked Apple ID to its new `sub` since (and an
            // unlink retired it under that one).
            let moved = r.linked.flatMap { t in SimIdentity.universe.firstIndex(of: t) }
                .flatMap { SimIdentity.transferred.indices.contains($0) ? SimIdentity.transferred[$0].sub : nil }
            if r.succeeded, let target = r.linked, let s = r.session,
                let doc = providers(s.uuid),
                !doc.active.contains(where: {
                    $0.type == target.provider.rawValue && ($0.id == target.sub || $0.formerIDs.contains(target.sub))
                }),
                !doc.retired.contains(where: {
                    $0.type == target.provider.rawValue && ($0.id == target.sub || $0.id == moved)
                })
            {
                fail("op \(r.id): link of \(target) answered success, but it is not listed and no unlink retired it")
            }
        }
    }

    private func currentHash(_ body: [UInt8]?) -> String? {
        body.flatMap { try? JSONParser.parse($0) }.flatMap(SessionRecord.init(json:))?.currentHash
    }

    // MARK: 2. state

    func providers(_ uuid: String) -> StoredAccount? {
        s3.json(AccountKeys.providers(uuid)).flatMap(StoredAccount.init(json:))
    }

    /// What a session record says, read independently.
    func storedSession(
        _ s: HeldSession
    ) -> (revoked: Bool, expiresAtMs: Int64, sub: String?, linkID: String?, signInAtMs: Int64)? {
        guard let o = s3.json(AccountKeys.session(s.uuid, s.sessionID))?.objectValue else { return nil }
        let identity = o["identity"]?.objectValue
        return (
            !(o["revokedAt"]?.isNull ?? true), o["expiresAt"]?.stringValue.flatMap(ISO8601.parse) ?? 0,
            identity?["sub"]?.stringValue, identity?["linkID"]?.stringValue,
            o["signInAt"]?.stringValue.flatMap(ISO8601.parse) ?? 0
        )
    }

    func identityFile(_ id: SimIdentity) -> (uuid: String, linkID: String?)? {
        guard let v = s3.current(id.key) else { return nil }
        return (String(decoding: v.body, as: UTF8.self), v.metadata.first { $0.0 == AccountKeys.linkIDMetadata }?.1)
    }

    private mutating func state(strict: Bool, phase: String) {
        let deleted = deletedAccounts
        for key in s3.keys where key.hasSuffix("/account/providers.json") {
            let uuid = String(key.dropFirst("users/".count).prefix(36))
            if deleted.contains(uuid) { continue }  // checked by deletionsComplete()
            guard let doc = providers(uuid) else {
                fail("\(phase): \(key) is unreadable")
                continue
            }
            if doc.active.isEmpty { fail("\(phase): account \(uuid.prefix(8)) has no provider left") }
            for p in IdentityProvider.allCases where doc.active.filter({ $0.type == p.rawValue }).count > 1 {
                fail("\(phase): account \(uuid.prefix(8)) lists two \(p.rawValue) identities")
            }
            for p in IdentityProvider.allCases where doc.pending.filter({ $0.type == p.rawValue }).count > 1 {
                fail("\(phase): account \(uuid.prefix(8)) has two pending \(p.rawValue) links")
            }
            for link in doc.active {
                let file = identityFile(SimIdentity(provider: IdentityProvider(rawValue: link.type)!, sub: link.id))
                if file?.uuid != uuid || file?.linkID != link.linkID {
                    fail(
                        "\(phase): account \(uuid.prefix(8)) lists \(link.type):\(link.id) but its identity file is \(file.map { "\($0.uuid.prefix(8))/\($0.linkID ?? "-")" } ?? "missing")"
                    )
                }
            }
        }
        for id in SimIdentity.all {
            guard let file = identityFile(id) else { continue }
            if deleted.contains(file.uuid) {
                if strict { fail("\(phase): \(id) still names deleted account \(file.uuid.prefix(8))") }
                continue
            }
            guard let doc = providers(file.uuid) else {
                if strict { fail("\(phase): \(id) maps to an account without providers.json") }
                continue
            }
            if strict && !doc.lists(id, linkID: file.linkID) {
                fail("\(phase): \(id) has an identity file that its account does not list")
            }
        }
    }

    // MARK: 3. sessions

    private mutating func sessions() {
        let probe = world.settleService()
        for s in world.sessions {
            let record = s3.json(AccountKeys.session(s.uuid, s.sessionID)).flatMap(SessionRecord.init(json:))
            let now = world.scheduler.clock
            let stored = storedSession(s)
            let live =
                stored.map {
                    !$0.revoked && now < $0.expiresAtMs
                        && (providers(s.uuid)?.accepts(s.identity, linkID: $0.linkID, signInAtMs: $0.signInAtMs)
                            ?? false)
                } ?? false
            let tokens = Array(Set(s.delivered)).sorted()
            let working = tokens.filter { t in
                record?.classify(
                    tokenHash: RefreshToken.parse(t)!.hash, nowMs: now,
                    graceSeconds: world.settings.refreshReuseGraceSeconds) == .current
            }
            let touchedByFault = world.records.contains {
                $0.session === s && (world.scheduler.faultedOps.contains($0.id) || !$0.succeededOrFailed)
            }
            if live {
                if let token = working.first {
                    do throws(AccountError) { _ = try probe.sessions.refresh(token: token, deadline: .none) } catch {
                        fail(
                            "session \(s.sessionID.prefix(6)) (\(s.identity)): live, but its current token is refused: \(error)"
                        )
                    }
                } else if !touchedByFault {
                    fail(
                        "session \(s.sessionID.prefix(6)) (\(s.identity)): live, but no delivered token works, and no fault explains it"
                    )
                }
            } else {
                for token in tokens {
                    do throws(AccountError) {
                        _ = try probe.sessions.refresh(token: token, deadline: .none)
                        fail(
                            "session \(s.sessionID.prefix(6)) (\(s.identity)): ended or unlinked, but a token still refreshes"
                        )
                    } catch {
                        if case .sessionInvalid = error { continue }
                        fail("session \(s.sessionID.prefix(6)): probing a dead session answered \(error)")
                    }
                }
            }
        }
    }

    // MARK: 4. repair

    private mutating func settle() {
        let service = world.settleService()
        for id in SimIdentity.all {
            let expected = expectedOwner(id)
            let suspended = suspensionRecord(id)?.suspended == true
            do throws(AccountError) {
                let out = try service.signIn.signIn(
                    identity: id.verified, intent: .signin, fullName: nil, device: nil, deadline: .none)
                if suspended { fail("repair: \(id) is suspended, but a sign-in with it succeeded") }
                if out.account.serviceUserID != expected {
                    fail(
                        "repair: \(id) signed in to \(out.account.serviceUserID.prefix(8)), expected \(expected.map { String($0.prefix(8)) } ?? "no account")"
                    )
                }
            } catch {
                if case .accountNotFound = error, expected == nil, !suspended { continue }
                if case .identitySuspended = error, suspended { continue }
                fail(
                    "repair: \(id) sign-in answered \(error), expected \(expected.map { String($0.prefix(8)) } ?? "ACCOUNT_NOT_FOUND")"
                )
            }
        }
    }

    /// The account a sign-in with `id` must reach, from the state alone.
    func expectedOwner(_ id: SimIdentity) -> String? {
        guard let file = identityFile(id) else { return transferOwner(id) }
        if deletedAccounts.contains(file.uuid) || s3.current(AccountKeys.deletion(file.uuid)) != nil { return nil }
        guard let doc = providers(file.uuid) else { return file.uuid }  // half-made: completed
        if doc.lists(id, linkID: file.linkID) { return file.uuid }
        // An app transfer's re-key that stopped after its new file: finished (contract v4).
        if let t = s3.current(id.key)?.metadata.first(where: { $0.0 == AccountKeys.transferSubMetadata })?.1,
            doc.prepared(t, linkID: file.linkID)
        {
            return file.uuid
        }
        // A link that stopped after its identity file: completed, if its provider's slot is free.
        let slotFree = !doc.active.contains { $0.type == id.provider.rawValue }
        if let linkID = file.linkID, doc.pending.contains(where: { $0.linkID == linkID && $0.id == id.sub }) {
            return slotFree ? file.uuid : nil
        }
        return nil
    }
}

/// providers.json as the checks read it, independently of `ProvidersDocument`.
struct StoredAccount {
    struct Entry {
        var type: String
        var id: String
        var linkID: String?
        var formerIDs: [String] = []
        /// Prepared app transfers: (transfer_sub, rekeyedFrom).
        var transfers: [(String, String?)] = []
        /// Google's suspension as the entry holds it: suspended, and the event's iat (ms).
        var suspended = false
        var suspensionIssuedAtMs: Int64?
        var sessionsNotBeforeMs: Int64?
    }

    var active: [Entry] = []
    var pending: [Entry] = []
    var retired: [Entry] = []

    init?(json: JSONValue) {
        guard let o = json.objectValue else { return nil }
        func entries(_ name: String) -> [Entry] {
            (o[name]?.arrayValue ?? []).compactMap { item in
                guard let e = item.objectValue, let t = e["type"]?.stringValue, let id = e["id"]?.stringValue else {
                    return nil
                }
                var entry = Entry(
                    type: t, id: id, linkID: e["linkID"]?.stringValue,
                    formerIDs: (e["formerIDs"]?.arrayValue ?? []).compactMap(\.stringValue),
                    transfers: (e["transfers"]?.arrayValue ?? []).compactMap { t in
                        t["sub"]?.stringValue.map { ($0, t["rekeyedFrom"]?.stringValue) }
                    })
                entry.suspended = e["suspension"]?["suspended"]?.boolValue ?? false
                entry.suspensionIssuedAtMs = e["suspension"]?["eventIssuedAt"]?.stringValue.flatMap(ISO8601.parse)
                entry.sessionsNotBeforeMs = e["sessionsNotBefore"]?.stringValue.flatMap(ISO8601.parse)
                return entry
            }
        }
        active = entries("providers")
        pending = entries("pending")
        retired = entries("retired")
    }

    /// Whether an identity file of `id` with `linkID` is listed: the link's current id only.
    func lists(_ id: SimIdentity, linkID: String?) -> Bool {
        active.contains { $0.type == id.provider.rawValue && $0.id == id.sub && $0.linkID == linkID }
    }

    /// Whether a session signed in with `id` under `linkID` still follows a listed link: its
    /// current id or one an app transfer re-keyed it from (contract v4), the same link id.
    func follows(_ id: SimIdentity, linkID: String?) -> Bool { followed(id, linkID: linkID) != nil }

    /// The listed link a session signed in with `id` under `linkID` follows (see `follows`).
    func followed(_ id: SimIdentity, linkID: String?) -> Entry? {
        active.first {
            $0.type == id.provider.rawValue && $0.linkID == linkID && ($0.id == id.sub || $0.formerIDs.contains(id.sub))
        }
    }

    /// Whether a session signed in with `id` through link `linkID` at `signInAtMs` may act: it
    /// follows a listed link (`follows`), not suspended, and not older than the link's last end of
    /// its sessions.
    func accepts(_ id: SimIdentity, linkID: String?, signInAtMs: Int64) -> Bool {
        guard let link = followed(id, linkID: linkID), !link.suspended else { return false }
        return signInAtMs > (link.sessionsNotBeforeMs ?? .min)
    }

    func entry(_ id: SimIdentity) -> Entry? { active.first { $0.type == id.provider.rawValue && $0.id == id.sub } }

    /// Whether the Apple link `linkID` is prepared for the transfer `t` and not re-keyed yet.
    func prepared(_ t: String, linkID: String?) -> Bool {
        active.contains {
            $0.type == "apple" && $0.linkID == linkID && $0.transfers.contains { $0.0 == t && $0.1 == nil }
        }
    }
}

extension OpRecord {
    var succeededOrFailed: Bool { if case .crashed = outcome { return false } else { return true } }
}

extension SimulationWorld {
    /// A fault-free service on the run's store and clock, one call at a time (the checks' probe).
    func settleService() -> AccountFlows {
        let backend = StoreBackend(s3: scheduler.s3)
        let scheduler = self.scheduler
        let environment = AccountEnvironment(
            now: { scheduler.clock }, randomBytes: { scheduler.rng.bytes($0) }, pause: { _ in })
        return AccountFlows(backend: backend, settings: settings, environment: environment)
    }
}

/// Calls applied to the store directly, in order, without faults.
final class StoreBackend: AccountBackend {
    let s3: SimulatedS3
    init(s3: SimulatedS3) { self.s3 = s3 }
    func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>] { calls.map(s3.apply) }
}

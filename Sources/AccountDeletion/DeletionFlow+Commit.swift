import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import StrictJSON

/// What a deletion answered (docs/API.md, auth-link `delete`).
package struct DeletionOutcome: Sendable {
    package var serviceUserID: String
    /// Everything under `users/{uuid}/` is gone, all versions; false: the scheduled run finishes.
    package var purgeComplete: Bool
    /// The account's Apple identity (`sub`), whose tokens Sign in with Apple revocation revokes.
    package var appleSubject: String?

    package init(serviceUserID: String, purgeComplete: Bool, appleSubject: String? = nil) {
        self.serviceUserID = serviceUserID
        self.purgeComplete = purgeComplete
        self.appleSubject = appleSubject
    }
}

/// Account deletion. Order, each step idempotent so that a stop anywhere is finished by a retry
/// or the scheduled run: the deletion record (create-only: the intent) → the commit
/// (`deletedAt` in providers.json: from here on sign-in, refresh and every session check refuse
/// the account in the rounds they already make) → identity files and purchase claims that name
/// the account → the purge of `users/{uuid}/`, all versions and delete markers → (the caller)
/// Sign in with Apple revocation. Sessions end at the commit; their records go with the purge.
extension DeletionFlow {
    package func deleteAccount(
        token: String, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> DeletionOutcome {
        let auth = try sessions.authenticate(token, recent: true, deadline: deadline)
        let uuid = auth.token.serviceUserID
        let apple = auth.account.providers.active(.apple)?.id
        let record = try beginDeletion(uuid, deadline: deadline)
        let finished = try finishDeletion(
            uuid, record, account: auth.account, purgeUntil: purgeUntil, deadline: deadline)
        return DeletionOutcome(serviceUserID: uuid, purgeComplete: finished.0.purgeComplete, appleSubject: apple)
    }

    /// The deletion record: created now with `cause`, or the one an earlier attempt left. A
    /// request (the user's, an operator's) takes over a record Apple's event left uncommitted, so
    /// that it commits whatever the account lists; Apple's event never weakens a request.
    package func beginDeletion(
        _ uuid: String, cause: DeletionCause = .requested, deadline: Deadline
    ) throws(AccountError) -> (DeletionRecord, String) {
        let key = AccountKeys.deletion(uuid)
        var fresh = DeletionRecord(serviceUserID: uuid, requestedAtMs: store.environment.now())
        fresh.cause = cause
        for _ in 0..<AccountStore.maxConditionalAttempts {
            if case .stored(let etag) = try store.backend.put(
                store.jsonPut(key, fresh.json, .ifNoneMatch), deadline: deadline)
            {
                return (fresh, etag)
            }
            // Gone again (dropped meanwhile): create it anew.
            guard let (existing, etag) = try store.loadDeletion(uuid, deadline: deadline) else { continue }
            guard cause.isRequested, !existing.cause.isRequested, existing.committedAtMs == nil else {
                return (existing, etag)
            }
            var taken = existing
            taken.cause = .requested
            if case .stored(let newETag) = try store.backend.put(
                store.jsonPut(key, taken.json, .ifMatch(etag)), deadline: deadline)
            {
                return (taken, newETag)
            }
        }
        throw .conflict("the deletion record kept changing")
    }

    /// `continueDeletion` of a deletion the user or an operator asked for, which is never dropped.
    package func finishDeletion(
        _ uuid: String, _ record: (DeletionRecord, String), account: Account?, purgeUntil: Deadline,
        deadline: Deadline
    ) throws(AccountError) -> (DeletionRecord, String) {
        guard
            case .recorded(let record, let etag) = try continueDeletion(
                uuid, record, account: account, purgeUntil: purgeUntil, deadline: deadline)
        else { throw .conflict("the deletion record was dropped meanwhile") }
        return (record, etag)
    }

    /// Every step the record says is left, within `purgeUntil` for the purge. `account` is the
    /// account as read, when the caller has it. A deletion whose cause no longer holds when it
    /// would commit (Apple's event, and another provider was linked since) is dropped instead.
    package func continueDeletion(
        _ uuid: String, _ record: (DeletionRecord, String), account: Account?, purgeUntil: Deadline,
        deadline: Deadline
    ) throws(AccountError) -> DeletionState {
        var (record, etag) = record
        var before = record
        if record.committedAtMs == nil || !record.mappingsRemoved {
            let docs = try store.readAccount(uuid, deadline: deadline)
            var current = try store.account(uuid: uuid, profile: docs.profile, providers: docs.providers) ?? account
            if record.committedAtMs == nil {
                if let loaded = current {
                    switch try commitOrDrop((record, etag), account: loaded, deadline: deadline) {
                    case .committed(let latest): current = latest
                    case .dropped(let unlinkedApple): return .dropped(unlinkedApple: unlinkedApple)
                    }
                }
                record.committedAtMs = current?.providers.deletedAtMs ?? store.environment.now()
                record.secondPassDueAtMs =
                    record.committedAtMs! + Int64(store.settings.credentialsDurationSeconds) * 1000
                    + DeletionFlow.secondPassMarginMs
            }
            if !record.mappingsRemoved {
                if let current {
                    record.linksInFlight = try removeMappings(uuid, listedIn: current.providers, deadline: deadline)
                }
                record.mappingsRemoved = true
            }
            (record, etag) = try saveDeletion(record, etag: etag, deadline: deadline)
            before = record
        }
        if record.linksInFlight {
            // A link whose claim the commit found, but not its identity file yet, may still write
            // that file: providers.json (which lists the claim) is kept until every invocation
            // that could have started before the commit has ended, then the claims' files go.
            guard let committed = record.committedAtMs, store.environment.now() >= committed + DeletionFlow.linkSettleMs
            else { return .recorded(record, etag: etag) }
            let key = AccountKeys.providers(uuid)
            if let object = try store.backend.get(key, deadline: deadline) {
                let doc = try decodeDocument(object.body, key: key, ProvidersDocument.init(json:))
                _ = try removeMappings(uuid, listedIn: doc, deadline: deadline)
            }
            record.linksInFlight = false
            (record, etag) = try saveDeletion(record, etag: etag, deadline: deadline)
            before = record
        }
        if !record.purgeComplete, let pass = purgePass(uuid, until: purgeUntil, deadline: deadline) {
            record.take(pass)
            if pass.complete { record.purgeComplete = true }
        }
        if record == before { return .recorded(record, etag: etag) }
        let saved = try saveDeletion(record, etag: etag, deadline: deadline)
        return .recorded(saved.0, etag: saved.1)
    }

    /// A purge pass after the commit: a failure leaves the rest to the scheduled run (the
    /// deletion answers `purge: pending`, never an error, once it has committed). Nil when the
    /// pass failed as a whole (a listing, an outage).
    package func purgePass(_ uuid: String, until: Deadline, deadline: Deadline) -> PurgePass? {
        do throws(AccountError) { return try purge(uuid, until: until, deadline: deadline) } catch { return nil }
    }

    /// Longer than any invocation that could have claimed a link before the commit can still
    /// run (Lambda's 15-minute ceiling, whatever the template's timeout).
    package static let linkSettleMs: Int64 = 15 * 60_000

    /// The commit point: `deletedAt` in providers.json (If-Match; already set is done), only while
    /// the deletion's cause holds on the document being written (contract v4: Apple's event
    /// commits only while its Apple link is the only listed provider). `committed` false: the
    /// cause no longer held; the account is returned as last read.
    package func commitDeletion(
        _ account: Account, cause: DeletionCause, deadline: Deadline
    ) throws(AccountError) -> (Account, committed: Bool) {
        let now = store.environment.now()
        var allowed = true
        let latest = try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            allowed = true
            guard doc.deletedAtMs == nil else { return false }
            guard cause.allowsCommit(on: doc) else {
                allowed = false
                return false
            }
            doc.deletedAtMs = now
            return true
        }
        return (latest, allowed)
    }

    /// Removes every identity file (listed, pending or retired link, or the former id of a re-key
    /// not cleaned up), app-transfer file and purchase claim that names the account, each exactly
    /// as read. True when a pending link's file was not there
    /// (yet): that link may still write it.
    @discardableResult
    package func removeMappings(_ uuid: String, of account: Account, deadline: Deadline) throws(AccountError) -> Bool {
        try removeMappings(uuid, listedIn: account.providers, deadline: deadline)
    }

    package func removeMappings(
        _ uuid: String, listedIn doc: ProvidersDocument, deadline: Deadline
    ) throws(AccountError) -> Bool {
        // A claim older than any invocation can run belongs to a link that is over.
        let now = store.environment.now()
        // Likewise a transfer the operator's `prepare` recorded whose file is not there yet: that
        // run may still write it (contract v4; it takes back a file it finds deleted, unless it
        // stops first).
        let pendingKeys = Set(
            doc.pending.filter { $0.sinceMs + DeletionFlow.linkSettleMs > now }
                .map { AccountKeys.identity($0.type, $0.id) }
                + doc.providers.flatMap { link in
                    link.transfers.filter { $0.rekeyedFrom == nil && $0.atMs + DeletionFlow.linkSettleMs > now }
                        .map { AccountKeys.appleTransfer($0.sub) }
                })
        var keys = doc.providers.map { AccountKeys.identity($0.type, $0.id) }
        keys +=
            doc.pending.map { AccountKeys.identity($0.type, $0.id) }
            + doc.retired.map { AccountKeys.identity($0.type, $0.id) }
        // The former ids' files a re-key keeps (contract v5), of listed and retired links.
        keys +=
            doc.providers.flatMap { l in l.formerIDs.map { AccountKeys.identity(l.type, $0) } }
            + doc.retired.flatMap { l in l.formerIDs.map { AccountKeys.identity(l.type, $0) } }
        keys += doc.purchases.map(AccountKeys.purchaseClaim)
        keys += doc.transferMappingKeys
        keys = Array(Set(keys)).sorted()
        var reads = Round()
        let slots = keys.map { reads.get($0) }
        let answers = store.backend.run(reads, deadline: deadline)
        var deletes = Round()
        var deleteSlots: [Round.Slot<S3DeleteOutcome>] = []
        var inFlight = false
        for (key, slot) in zip(keys, slots) {
            let object = try answers.value(slot)
            if object == nil && pendingKeys.contains(key) { inFlight = true }
            guard let object, String(decoding: object.body, as: UTF8.self) == uuid else { continue }
            let file = IdentityMapping(uuid: uuid, linkID: nil, object: object)
            deleteSlots.append(deletes.delete(key, store.identityDelete(file)))
        }
        let deleted = store.backend.run(deletes, deadline: deadline)
        for slot in deleteSlots { _ = try deleted.value(slot) }
        return inFlight
    }

    package func saveDeletion(
        _ record: DeletionRecord, etag: String, deadline: Deadline
    ) throws(AccountError) -> (DeletionRecord, String) {
        let tags = record.isDone ? [DeletionFlow.doneDeletionTag] : []
        let put = S3Put(
            key: AccountKeys.deletion(record.serviceUserID), body: record.json.serialized(),
            contentType: "application/json",
            condition: .ifMatch(etag), tags: tags)
        switch try store.backend.put(put, deadline: deadline) {
        case .stored(let newETag): return (record, newETag)
        case .preconditionFailed:
            // Another run (a retry, the schedule) moved it on: what it wrote stands.
            if let latest = try store.loadDeletion(record.serviceUserID, deadline: deadline) { return latest }
            // Gone. Once the deletion committed (providers.json says so) its record is what the
            // scheduled run purges by, so it is written again: Apple's event drops a record it read
            // uncommitted, and this run may have committed between that read and the drop.
            guard record.committedAtMs != nil else { throw .conflict("the deletion record disappeared") }
            var again = put
            again.condition = .ifNoneMatch
            switch try store.backend.put(again, deadline: deadline) {
            case .stored(let newETag): return (record, newETag)
            case .preconditionFailed:
                guard let latest = try store.loadDeletion(record.serviceUserID, deadline: deadline) else {
                    throw .conflict("the deletion record disappeared")
                }
                return latest
            }
        }
    }

    /// After the first complete purge, credentials issued before the deletion may still write
    /// until they expire; the second pass runs this long after that.
    package static let secondPassMarginMs: Int64 = 60_000

    /// `record=deletion-done`: the template's lifecycle rule expires finished deletion records.
    package static let doneDeletionTag = ("record", "deletion-done")
}

import AWSClients
import PlatformSupport
import TokenVerification

/// The operator's actions (docs/operations.md, contract "Operator actions"): the same flows and
/// documents as the functions, without a refresh token (the operator's own AWS credentials
/// authorise them). Each one goes through the conditional writes the functions use, so the
/// account's invariants hold whatever the app does meanwhile.
extension AccountService {
    /// The account a reference names (contract v4, "Operator actions"): found only when the
    /// account holds something (its profile, its providers.json, or the record of its deletion).
    /// A UUID or a mapping file that names nothing held is not found, like an unknown identity;
    /// `mappedTo` then says which UUID a mapping file named (a break `check` reports).
    package func locate(
        _ reference: AccountReference, deadline: Deadline
    ) throws(AccountError) -> (uuid: String?, mappedTo: String?) {
        let candidate: String
        switch reference {
        case .uuid(let uuid): candidate = uuid
        case .identity, .purchase:
            let key = reference.mappingKey!
            guard let m = try mapping(backend.get(key, deadline: deadline), key: key) else { return (nil, nil) }
            candidate = m.uuid
        }
        var round = Round()
        let slots = [AccountKeys.profile(candidate), AccountKeys.providers(candidate), AccountKeys.deletion(candidate)]
            .map { round.get($0) }
        let answers = backend.run(round, deadline: deadline)
        for slot in slots where try answers.value(slot) != nil { return (candidate, nil) }
        return (nil, reference.mappingKey == nil ? nil : candidate)
    }

    /// The account's two documents; `accountNotFound` when it has none (never made, or purged).
    package func loadAccount(_ uuid: String, deadline: Deadline) throws(AccountError) -> Account {
        let docs = try readAccount(uuid, deadline: deadline)
        guard let account = try account(uuid: uuid, profile: docs.profile, providers: docs.providers) else {
            throw .accountNotFound
        }
        return account
    }

    /// Disables the account (`disable` set) or enables it (`nil`). Answers whether anything
    /// changed. A deleted account is not found: there is nothing left to disable.
    package func setDisabled(
        _ uuid: String, _ disable: AccountDisable?, deadline: Deadline
    ) throws(AccountError) -> Bool {
        var changed = false
        _ = try updateProviders(loadAccount(uuid, deadline: deadline), deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard !doc.isDeleted else { throw .accountNotFound }
            changed = (doc.disabled == nil) != (disable == nil)
            guard changed else { return false }
            doc.disabled = disable
            return true
        }
        return changed
    }

    /// Signs out every live session of the account, or the one named; answers how many ended.
    /// Works on a disabled account too (abuse: disable, then sign everyone out).
    package func revokeSessions(
        _ uuid: String, only sessionID: String?, reason: String, deadline: Deadline
    ) throws(AccountError) -> Int {
        if let sessionID {
            return try revokeSession(uuid, named: sessionID, reason: reason, deadline: deadline) == .revoked ? 1 : 0
        }
        var count = 0
        for (record, _) in try sessionRecords(uuid, deadline: deadline) where record.isLive(nowMs: environment.now()) {
            if try revokeSession(uuid, record.sessionID, reason: reason, deadline: deadline) { count += 1 }
        }
        return count
    }

    /// What signing out one named session did.
    package enum SessionRevocation: Sendable, Equatable {
        case revoked
        /// The session is the account's but had already ended (revoked or expired).
        case alreadyEnded
        /// No session of this account has that id (malformed ids included).
        case notFound
    }

    /// Signs out the session `sessionID` of the account, telling an unknown id from an ended one.
    package func revokeSession(
        _ uuid: String, named sessionID: String, reason: String, deadline: Deadline
    ) throws(AccountError) -> SessionRevocation {
        guard try session(uuid, named: sessionID, deadline: deadline) != nil else { return .notFound }
        return try revokeSession(uuid, sessionID, reason: reason, deadline: deadline) ? .revoked : .alreadyEnded
    }

    /// The account's session record `sessionID` (live or ended), or nil when it has none by that id.
    package func session(
        _ uuid: String, named sessionID: String, deadline: Deadline
    ) throws(AccountError) -> SessionRecord? {
        guard AccountKeys.isHexID(sessionID) else { return nil }
        let key = AccountKeys.session(uuid, sessionID)
        guard let object = try backend.get(key, deadline: deadline) else { return nil }
        let record = try decodeDocument(object.body, key: key, SessionRecord.init(json:))
        return record.serviceUserID == uuid ? record : nil
    }

    /// Deletes the account exactly as the app's `delete` does after its session check: the
    /// record, the commit, identity files and claims, the purge (the scheduled run finishes it
    /// and runs the second pass). No Apple authorization code, so no Sign in with Apple
    /// revocation: `appleSubject` tells the operator whether the account had an Apple identity.
    package func deleteAccount(
        operatorDeletes uuid: String, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> DeletionOutcome {
        let docs = try readAccount(uuid, deadline: deadline)
        let current = try account(uuid: uuid, profile: docs.profile, providers: docs.providers)
        if current == nil, docs.providers == nil, docs.profile == nil, try loadDeletion(uuid, deadline: deadline) == nil
        {
            throw .accountNotFound
        }
        let apple = current?.providers.active(.apple)?.id
        let record = try beginDeletion(uuid, deadline: deadline)
        let finished = try finishDeletion(uuid, record, account: current, purgeUntil: purgeUntil, deadline: deadline)
        return DeletionOutcome(serviceUserID: uuid, purgeComplete: finished.0.purgeComplete, appleSubject: apple)
    }

    /// Every session record of the account (bounded: `maxListPages` pages of keys).
    package func sessionRecords(
        _ uuid: String, deadline: Deadline
    ) throws(AccountError) -> [(SessionRecord, String)] {
        let prefix = AccountKeys.sessionsPrefix(uuid)
        let keys = try listAll(prefix, deadline: deadline).keys.filter {
            $0.hasSuffix(".json") && AccountKeys.isHexID(String($0.dropFirst(prefix.utf8.count).dropLast(5)))
        }
        var records: [(SessionRecord, String)] = []
        for object in try getAll(keys, deadline: deadline).compactMap({ $0.1 }) {
            let record = try decodeDocument(object.body, key: prefix, SessionRecord.init(json:))
            guard record.serviceUserID == uuid else { continue }
            records.append((record, object.etag))
        }
        return records
    }

    /// Pages an operator command lists under one prefix at most (a million keys).
    package static let maxListPages = 1_000

    /// Every key under `prefix`, a page at a time; `complete` false when the bound stopped it.
    package func listAll(
        _ prefix: String, deadline: Deadline, onPage: (Int) -> Void = { _ in }
    ) throws(AccountError) -> (keys: [String], complete: Bool) {
        var keys: [String] = []
        var after: String?
        for page in 0..<AccountService.maxListPages {
            var round = Round()
            let slot = round.list(prefix, after: after)
            let listing = try backend.run(round, deadline: deadline).value(slot)
            keys += listing.keys
            onPage(page + 1)
            guard listing.isTruncated, let last = listing.keys.last else { return (keys, true) }
            after = last
        }
        return (keys, false)
    }

    /// GETs of `keys`, `sessionsPerRound` at a time, in order: each key with its object or nil.
    package func getAll(_ keys: [String], deadline: Deadline) throws(AccountError) -> [(String, S3Object?)] {
        var out: [(String, S3Object?)] = []
        for start in stride(from: 0, to: keys.count, by: AccountService.sessionsPerRound) {
            let chunk = Array(keys[start..<min(start + AccountService.sessionsPerRound, keys.count)])
            var round = Round()
            let slots = chunk.map { round.get($0) }
            let answers = backend.run(round, deadline: deadline)
            for (key, slot) in zip(chunk, slots) { out.append((key, try answers.value(slot))) }
        }
        return out
    }
}

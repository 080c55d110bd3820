import AWSClients
import PlatformSupport
import TokenVerification

/// The operator's actions (docs/operations.md, contract "Operator actions"): the same flows and
/// documents as the functions, without a refresh token (the operator's own AWS credentials
/// authorise them). Each one goes through the conditional writes the functions use, so the
/// account's invariants hold whatever the app does meanwhile.
extension AccountService {
    /// The account a reference names: its UUID, or nil when no account maps to it.
    package func resolve(_ reference: AccountReference, deadline: Deadline) throws(AccountError) -> String? {
        guard let key = reference.mappingKey else {
            if case .uuid(let uuid) = reference { return uuid }
            return nil
        }
        return try mapping(backend.get(key, deadline: deadline), key: key)?.uuid
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
            guard AccountKeys.isHexID(sessionID) else { return 0 }
            return try revokeSession(uuid, sessionID, reason: reason, deadline: deadline) ? 1 : 0
        }
        var count = 0
        for (record, _) in try sessionRecords(uuid, deadline: deadline) where record.isLive(nowMs: environment.now()) {
            if try revokeSession(uuid, record.sessionID, reason: reason, deadline: deadline) { count += 1 }
        }
        return count
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

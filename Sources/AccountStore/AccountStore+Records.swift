import AWSClients
import AccountModel
import PlatformSupport
import StrictJSON

/// Reading the account's other documents: session records, deletion records, whole listings.
extension AccountStore {
    /// The account's two documents; `accountNotFound` when it has none (never made, or purged).
    package func loadAccount(_ uuid: String, deadline: Deadline) throws(AccountError) -> Account {
        let docs = try readAccount(uuid, deadline: deadline)
        guard let account = try account(uuid: uuid, profile: docs.profile, providers: docs.providers) else {
            throw .accountNotFound
        }
        return account
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
        for page in 0..<AccountStore.maxListPages {
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
        for start in stride(from: 0, to: keys.count, by: AccountStore.sessionsPerRound) {
            let chunk = Array(keys[start..<min(start + AccountStore.sessionsPerRound, keys.count)])
            var round = Round()
            let slots = chunk.map { round.get($0) }
            let answers = backend.run(round, deadline: deadline)
            for (key, slot) in zip(chunk, slots) { out.append((key, try answers.value(slot))) }
        }
        return out
    }

    /// The record read for `token`'s session, with its ETag; nil when there is none.
    package func session(_ object: S3Object?, _ token: RefreshToken) throws(AccountError) -> (SessionRecord, String)? {
        guard let object else { return nil }
        let key = AccountKeys.session(token.serviceUserID, token.sessionID)
        let record = try decodeDocument(object.body, key: key, SessionRecord.init(json:))
        guard record.serviceUserID == token.serviceUserID, record.sessionID == token.sessionID else {
            throw .corruptDocument(key: key, reason: "session names another account")
        }
        return (record, object.etag)
    }

    package func loadDeletion(_ uuid: String, deadline: Deadline) throws(AccountError) -> (DeletionRecord, String)? {
        let key = AccountKeys.deletion(uuid)
        guard let object = try backend.get(key, deadline: deadline) else { return nil }
        return (try decodeDocument(object.body, key: key, DeletionRecord.init(json:)), object.etag)
    }

    /// Every version of the one key `key` (a session record this invocation wrote and must take
    /// back), gone for good within `deadline`: no round budget, which is for whole accounts.
    package func erase(_ key: String, deadline: Deadline) throws(AccountError) {
        _ = try purge(prefix: key, until: .none, deadline: deadline)
    }
}

import AWSClients
import AccountModel
import AccountStore
import PlatformSupport

/// The account's sessions (docs/API.md, auth-refresh `list`, `signoutOthers`, `signoutSession`).
/// Reading them also clears out records that can never work again (revoked, expired, or signed in
/// with a link that was since removed); the template's lifecycle rule catches the rest.
extension SessionFlow {
    package func listSessions(token: String, deadline: Deadline) throws(AccountError) -> [SessionSummary] {
        let auth = try authenticate(token, recent: false, deadline: deadline)
        let (live, complete) = try liveSessionsListed(
            auth.token.serviceUserID, account: auth.account, deadline: deadline)
        // The session may end between its check and the listing (a deletion, an unlink, a
        // revoke racing this call). A whole listing without it is the newer truth: answer
        // that, not a success that marks no session current (the storm caught one).
        guard !complete || live.contains(where: { $0.0.sessionID == auth.token.sessionID }) else {
            throw .sessionInvalid(reason: "it ended while its sessions were listed")
        }
        return live.map {
            (record, _) in
            SessionSummary(
                sessionID: record.sessionID, provider: record.identity.provider, device: record.device,
                signedInAtMs: record.signInAtMs,
                lastRefreshedAtMs: record.currentIssuedAtMs, expiresAtMs: record.expiresAtMs,
                isCurrent: record.sessionID == auth.token.sessionID)
        }.sorted { ($0.signedInAtMs, $0.sessionID) > ($1.signedInAtMs, $1.sessionID) }
    }

    /// Revokes every other live session of the account; answers how many there were.
    package func signOutOthers(token: String, deadline: Deadline) throws(AccountError) -> Int {
        let auth = try authenticate(token, recent: true, deadline: deadline)
        let others = try liveSessions(auth.token.serviceUserID, account: auth.account, deadline: deadline).filter {
            $0.0.sessionID != auth.token.sessionID
        }
        let reason = "signed out by another session"
        var count = 0
        for start in stride(from: 0, to: others.count, by: AccountStore.sessionsPerRound) {
            let chunk = others[start..<min(start + AccountStore.sessionsPerRound, others.count)]
            var round = Round()
            let slots = chunk.map {
                round.put(
                    store.sessionPut($0.0.revoked(reason: reason, nowMs: store.environment.now()), .ifMatch($0.1)))
            }
            let answers = store.backend.run(round, deadline: deadline)
            for ((record, _), slot) in zip(chunk, slots) {
                if case .stored = try answers.value(slot) {
                    count += 1
                } else if try revokeSession(record.serviceUserID, record.sessionID, reason: reason, deadline: deadline)
                {
                    count += 1  // it changed meanwhile (a refresh): revoke what it is now
                }
            }
        }
        return count
    }

    /// Revokes one session of the account. The presented session itself needs only its current
    /// token; another one needs a recent sign-in. An id that names no session of this account
    /// changes nothing and answers the same.
    package func signOutSession(token: String, sessionID: String, deadline: Deadline) throws(AccountError) {
        let own = RefreshToken.parse(token)?.sessionID == sessionID
        let auth = try authenticate(token, recent: !own, deadline: deadline)
        guard AccountKeys.isHexID(sessionID) else { return }  // names no session: nothing changes
        _ = try revokeSession(
            auth.token.serviceUserID, sessionID, reason: own ? "signed out" : "signed out by another session",
            deadline: deadline)
    }

    /// Marks one session revoked (If-Match, re-read on a lost race). True when it was live.
    package func revokeSession(
        _ uuid: String, _ sessionID: String, reason: String, deadline: Deadline
    ) throws(AccountError) -> Bool {
        let key = AccountKeys.session(uuid, sessionID)
        for _ in 0..<AccountStore.maxConditionalAttempts {
            guard let object = try store.backend.get(key, deadline: deadline) else { return false }
            let record = try decodeDocument(object.body, key: key, SessionRecord.init(json:))
            guard record.serviceUserID == uuid, record.isLive(nowMs: store.environment.now()) else { return false }
            if case .stored = try store.backend.put(
                store.sessionPut(record.revoked(reason: reason, nowMs: store.environment.now()), .ifMatch(object.etag)),
                deadline: deadline)
            {
                return true
            }
            store.pauseAfterLostRace()
        }
        throw .conflict("a session kept changing while signing it out")
    }

    /// Every live session of the account, however many ("every means every one", contract v4):
    /// the listing is followed a page (1,000 records) at a time, each page's records read
    /// `sessionsPerRound` at a time. Records that can never work again are deleted along the way,
    /// best effort.
    package func liveSessions(
        _ uuid: String, account: Account, deadline: Deadline
    ) throws(AccountError) -> [(SessionRecord, String)] {
        try liveSessionsListed(uuid, account: account, deadline: deadline).live
    }

    /// `liveSessions`, and whether the listing was whole (false only past `maxListPages` pages).
    package func liveSessionsListed(
        _ uuid: String, account: Account, deadline: Deadline
    ) throws(AccountError) -> (live: [(SessionRecord, String)], complete: Bool) {
        let prefix = AccountKeys.sessionsPrefix(uuid)
        let now = store.environment.now()
        var live: [(SessionRecord, String)] = []
        var dead: [String] = []
        var after: String?
        var complete = false
        for _ in 0..<AccountStore.maxListPages {
            var listing = Round()
            let slot = listing.list(prefix, after: after)
            let page = try store.backend.run(listing, deadline: deadline).value(slot)
            let keys = page.keys.filter {
                $0.hasSuffix(".json") && AccountKeys.isHexID(String($0.dropFirst(prefix.utf8.count).dropLast(5)))
            }
            try readSessions(keys, of: uuid, account: account, nowMs: now, live: &live, dead: &dead, deadline: deadline)
            guard page.isTruncated, let last = page.keys.last else {
                complete = true
                break
            }
            after = last
        }
        if !dead.isEmpty {
            var cleanup = Round()
            for key in dead.prefix(AccountStore.sessionsPerRound) { _ = cleanup.delete(key, .none) }
            _ = store.backend.run(cleanup, deadline: deadline)
        }
        return (live, complete)
    }

    /// Reads one listing page's session records: the live ones listed by the account, and the
    /// keys of those that can never work again.
    private func readSessions(
        _ keys: [String], of uuid: String, account: Account, nowMs now: Int64, live: inout [(SessionRecord, String)],
        dead: inout [String], deadline: Deadline
    ) throws(AccountError) {
        for start in stride(from: 0, to: keys.count, by: AccountStore.sessionsPerRound) {
            let chunk = Array(keys[start..<min(start + AccountStore.sessionsPerRound, keys.count)])
            var round = Round()
            let slots = chunk.map { round.get($0) }
            let answers = store.backend.run(round, deadline: deadline)
            for (key, slot) in zip(chunk, slots) {
                guard let object = try answers.value(slot) else { continue }
                let record = try decodeDocument(object.body, key: key, SessionRecord.init(json:))
                guard record.serviceUserID == uuid else {
                    throw .corruptDocument(key: key, reason: "session names another account")
                }
                let listed = account.providers.accepts(record)
                if record.isLive(nowMs: now) && listed {
                    live.append((record, object.etag))
                } else if !record.isLive(nowMs: now) || now - record.signInAtMs > ProvidersDocument.pendingLifetimeMs {
                    // Unlisted but young: its sign-in may still be completing a pending link.
                    dead.append(key)
                }
            }
        }
    }
}

import AWSClients
import PlatformSupport

/// Refresh and sign-out (docs/API.md, auth-refresh). A refresh costs three rounds: the record and
/// the account documents; credentials from STS (only for a token its record vouches for); the
/// rotated record. Session management (`list`, `signoutOthers`, `signoutSession`) is in
/// `AccountService+SessionList.swift`.
extension AccountService {
    package func refresh(token text: String, deadline: Deadline) throws(AccountError) -> RefreshOutcome {
        let token = try parseToken(text)
        let uuid = token.serviceUserID
        var round = Round()
        let sessionSlot = round.get(AccountKeys.session(uuid, token.sessionID))
        let profileSlot = round.get(AccountKeys.profile(uuid)), providersSlot = round.get(AccountKeys.providers(uuid))
        let answers = backend.run(round, deadline: deadline)
        guard var (record, etag) = try session(answers.value(sessionSlot), token) else {
            throw .sessionInvalid(reason: "unknown")
        }
        let account = try account(
            uuid: uuid, profile: answers.value(profileSlot), providers: answers.value(providersSlot))
        var credentials: TemporaryCredentials?
        for _ in 0..<AccountService.maxConditionalAttempts {
            let now = environment.now()
            let presented = record.classify(
                tokenHash: token.hash, nowMs: now, graceSeconds: settings.refreshReuseGraceSeconds)
            // A disabled account's sessions neither refresh nor end by reuse: nothing changes.
            if account?.providers.isActiveButDisabled == true, presented.isIssuedByThisSession {
                throw .accountDisabled
            }
            switch presented {
            case .current, .justRotated:
                guard let account else {
                    throw .sessionInvalid(reason: "the account is incomplete; sign in again to complete it")
                }
                guard !account.providers.isDeleted else { throw .sessionInvalid(reason: "the account was deleted") }
                guard account.providers.accepts(record) else {
                    throw .sessionInvalid(reason: "its identity was unlinked, or its sessions were ended")
                }
                if credentials == nil {
                    var sts = Round()
                    let slot = sts.assumeRole(try assumeRoleRequest(uuid))
                    credentials = try backend.run(sts, deadline: deadline).value(slot)
                }
                let next = newToken(uuid, sessionID: token.sessionID)
                let updated = record.rotated(from: presented, newToken: next, nowMs: now)
                if case .stored = try backend.put(sessionPut(updated, .ifMatch(etag)), deadline: deadline) {
                    return RefreshOutcome(account: account, session: issued(credentials!, next, updated))
                }
                // Lost the race, or this write landed and its answer was lost: the record tells.
                guard
                    let fresh = try session(
                        backend.get(AccountKeys.session(uuid, token.sessionID), deadline: deadline), token)
                else {
                    throw .sessionInvalid(reason: "ended during refresh")
                }
                if fresh.0.currentHash == updated.currentHash {
                    return RefreshOutcome(account: account, session: issued(credentials!, next, fresh.0))
                }
                (record, etag) = fresh
                pauseAfterLostRace()
            case .reused:
                try revoke(record, etag: etag, token: token, reason: "refresh token reuse", deadline: deadline)
                throw .tokenReuse
            case .supersededInGrace, .unknown, .expired, .revoked:
                throw .sessionInvalid(reason: "\(presented)")
            }
        }
        throw .conflict("the session kept changing during refresh")
    }

    /// Revokes the session the token belongs to. Idempotent for a session already signed out or
    /// expired. Takes the current token, or the just-rotated one within the grace.
    package func signOut(token text: String, deadline: Deadline) throws(AccountError) {
        let token = try parseToken(text)
        for _ in 0..<AccountService.maxConditionalAttempts {
            // providers.json in the same round: sign-out is not the hot path, and a disabled
            // account's sessions change only through an operator.
            var round = Round()
            let sessionSlot = round.get(AccountKeys.session(token.serviceUserID, token.sessionID))
            let providersSlot = round.get(AccountKeys.providers(token.serviceUserID))
            let answers = backend.run(round, deadline: deadline)
            guard let (record, etag) = try session(answers.value(sessionSlot), token) else {
                throw .sessionInvalid(reason: "unknown")
            }
            let presented = record.classify(
                tokenHash: token.hash, nowMs: environment.now(), graceSeconds: settings.refreshReuseGraceSeconds)
            // Even an idempotent sign-out of an ended session answers ACCOUNT_DISABLED: no success
            // while disabled. (A token the session never issued stays SESSION_INVALID below.)
            if presented != .unknown, try isActiveButDisabled(answers.value(providersSlot), uuid: token.serviceUserID) {
                throw .accountDisabled
            }
            switch presented {
            case .revoked, .expired:
                return
            case .current, .justRotated:
                let put = sessionPut(record.revoked(reason: "signed out", nowMs: environment.now()), .ifMatch(etag))
                if case .stored = try backend.put(put, deadline: deadline) { return }
                pauseAfterLostRace()  // re-read: a lost answer shows as revoked
            case .reused:
                try revoke(record, etag: etag, token: token, reason: "refresh token reuse", deadline: deadline)
                throw .tokenReuse
            case .supersededInGrace, .unknown:
                throw .sessionInvalid(reason: "\(presented)")
            }
        }
        throw .conflict("the session kept changing during sign-out")
    }

    /// Marks the session revoked, whatever it has become meanwhile (reuse ends it for good).
    func revoke(
        _ record: SessionRecord, etag: String, token: RefreshToken, reason: String, deadline: Deadline
    ) throws(AccountError) {
        var record = record, etag = etag
        for _ in 0..<AccountService.maxConditionalAttempts {
            if record.isRevoked { return }
            if case .stored = try backend.put(
                sessionPut(record.revoked(reason: reason, nowMs: environment.now()), .ifMatch(etag)), deadline: deadline
            ) {
                return
            }
            guard let fresh = try loadSession(token, deadline: deadline) else { return }
            (record, etag) = fresh
        }
        throw .conflict("could not revoke the session")
    }

    func loadSession(_ token: RefreshToken, deadline: Deadline) throws(AccountError) -> (SessionRecord, String)? {
        try session(backend.get(AccountKeys.session(token.serviceUserID, token.sessionID), deadline: deadline), token)
    }

    /// The record read for `token`'s session, with its ETag; nil when there is none.
    func session(_ object: S3Object?, _ token: RefreshToken) throws(AccountError) -> (SessionRecord, String)? {
        guard let object else { return nil }
        let key = AccountKeys.session(token.serviceUserID, token.sessionID)
        let record = try decodeDocument(object.body, key: key, SessionRecord.init(json:))
        guard record.serviceUserID == token.serviceUserID, record.sessionID == token.sessionID else {
            throw .corruptDocument(key: key, reason: "session names another account")
        }
        return (record, object.etag)
    }
}

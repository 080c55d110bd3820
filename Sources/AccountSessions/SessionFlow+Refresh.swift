import AWSClients
import AccountModel
import AccountStore
import PlatformSupport

/// Refresh and sign-out (docs/API.md, auth-refresh). A refresh costs three rounds: the record and
/// the account documents; credentials from STS (only for a token its record vouches for); the
/// rotated record. Session management (`list`, `signoutOthers`, `signoutSession`) is in
/// `SessionFlow+List.swift`.
extension SessionFlow {
    package func refresh(token text: String, deadline: Deadline) throws(AccountError) -> RefreshOutcome {
        let token = try parseToken(text)
        let uuid = token.serviceUserID
        var round = Round()
        let sessionSlot = round.get(AccountKeys.session(uuid, token.sessionID))
        let profileSlot = round.get(AccountKeys.profile(uuid)), providersSlot = round.get(AccountKeys.providers(uuid))
        let answers = store.backend.run(round, deadline: deadline)
        guard var (record, etag) = try store.session(answers.value(sessionSlot), token) else {
            throw .sessionInvalid(reason: "unknown")
        }
        let account = try store.account(
            uuid: uuid, profile: answers.value(profileSlot), providers: answers.value(providersSlot))
        var credentials: TemporaryCredentials?
        for _ in 0..<AccountStore.maxConditionalAttempts {
            let now = store.environment.now()
            let presented = record.classify(
                tokenHash: token.hash, nowMs: now, graceSeconds: store.settings.refreshReuseGraceSeconds)
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
                    credentials = try store.backend.run(sts, deadline: deadline).value(slot)
                }
                let next = newToken(uuid, sessionID: token.sessionID)
                let updated = record.rotated(from: presented, newToken: next, nowMs: now)
                if case .stored = try store.backend.put(store.sessionPut(updated, .ifMatch(etag)), deadline: deadline) {
                    return RefreshOutcome(account: account, session: issued(credentials!, next, updated))
                }
                // Lost the race, or this write landed and its answer was lost: the record tells.
                guard
                    let fresh = try store.session(
                        store.backend.get(AccountKeys.session(uuid, token.sessionID), deadline: deadline), token)
                else {
                    throw .sessionInvalid(reason: "ended during refresh")
                }
                if fresh.0.currentHash == updated.currentHash {
                    return RefreshOutcome(account: account, session: issued(credentials!, next, fresh.0))
                }
                (record, etag) = fresh
                store.pauseAfterLostRace()
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
        for _ in 0..<AccountStore.maxConditionalAttempts {
            // providers.json in the same round: sign-out is not the hot path, and a disabled
            // account's sessions change only through an operator.
            var round = Round()
            let sessionSlot = round.get(AccountKeys.session(token.serviceUserID, token.sessionID))
            let providersSlot = round.get(AccountKeys.providers(token.serviceUserID))
            let answers = store.backend.run(round, deadline: deadline)
            guard let (record, etag) = try store.session(answers.value(sessionSlot), token) else {
                throw .sessionInvalid(reason: "unknown")
            }
            let presented = record.classify(
                tokenHash: token.hash, nowMs: store.environment.now(),
                graceSeconds: store.settings.refreshReuseGraceSeconds)
            // Even an idempotent sign-out of an ended session answers ACCOUNT_DISABLED: no success
            // while disabled. (A token the session never issued stays SESSION_INVALID below.)
            if presented != .unknown,
                try store.isActiveButDisabled(answers.value(providersSlot), uuid: token.serviceUserID)
            {
                throw .accountDisabled
            }
            switch presented {
            case .revoked, .expired:
                return
            case .current, .justRotated:
                let put = store.sessionPut(
                    record.revoked(reason: "signed out", nowMs: store.environment.now()), .ifMatch(etag))
                if case .stored = try store.backend.put(put, deadline: deadline) { return }
                store.pauseAfterLostRace()  // re-read: a lost answer shows as revoked
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
    package func revoke(
        _ record: SessionRecord, etag: String, token: RefreshToken, reason: String, deadline: Deadline
    ) throws(AccountError) {
        var record = record, etag = etag
        for _ in 0..<AccountStore.maxConditionalAttempts {
            if record.isRevoked { return }
            if case .stored = try store.backend.put(
                store.sessionPut(record.revoked(reason: reason, nowMs: store.environment.now()), .ifMatch(etag)),
                deadline: deadline
            ) {
                return
            }
            guard let fresh = try loadSession(token, deadline: deadline) else { return }
            (record, etag) = fresh
        }
        throw .conflict("could not revoke the session")
    }

    package func loadSession(_ token: RefreshToken, deadline: Deadline) throws(AccountError) -> (SessionRecord, String)?
    {
        try store.session(
            store.backend.get(AccountKeys.session(token.serviceUserID, token.sessionID), deadline: deadline), token)
    }

}

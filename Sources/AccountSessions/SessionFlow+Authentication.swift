import AWSClients
import AccountModel
import AccountStore
import PlatformSupport

/// A refresh token checked for an action other than refresh, with the account it belongs to.
package struct AuthenticatedSession {
    package var token: RefreshToken
    package var record: SessionRecord
    package var etag: String
    package var account: Account
    /// The objects asked for with `alsoRead`, in order.
    package var extra: [S3Object?]
}

extension SessionFlow {
    /// Checks a token for link, unlink, list, signoutOthers or signoutSession (docs/API.md): only
    /// the session's current token counts (reuse of an older one revokes the session), its
    /// identity must still be linked, and with `recent` its original sign-in must be within
    /// RECENT_AUTH_SECONDS. Reads the record, the account and `alsoRead` in one round; the token
    /// is not rotated. (v5) The just-rotated token is refused (SESSION_INVALID, nothing revoked:
    /// that client is behind and refreshes first), and the current token's first presentation is
    /// recorded before the action goes on.
    package func authenticate(
        _ text: String, recent: Bool, alsoRead: [String] = [], deadline: Deadline
    ) throws(AccountError) -> AuthenticatedSession {
        let token = try parseToken(text)
        for _ in 0..<AccountStore.maxConditionalAttempts {
            var auth = try check(token, alsoRead: alsoRead, deadline: deadline)
            guard auth.record.needsPresentationRecorded else { return try recentEnough(auth, recent) }
            // v5: the first presentation of the current token is recorded before the action
            // answers; from then on the previous token after the grace is reuse. A write that
            // fails throws (consuming nothing); a lost race reads everything again.
            let marked = auth.record.presented(nowMs: store.environment.now())
            if case let .stored(etag) = try store.backend.put(
                store.sessionPut(marked, .ifMatch(auth.etag)), deadline: deadline)
            {
                auth.record = marked
                auth.etag = etag
                return try recentEnough(auth, recent)
            }
            store.pauseAfterLostRace()
        }
        throw .conflict("the session kept changing while its token was checked")
    }

    /// The session, unless `recent` asks for an original sign-in within RECENT_AUTH_SECONDS that
    /// it lacks. Checked after the presentation is recorded: the token was the current one.
    private func recentEnough(
        _ auth: AuthenticatedSession, _ recent: Bool
    ) throws(AccountError)
        -> AuthenticatedSession
    {
        if recent && store.environment.now() - auth.record.signInAtMs > store.settings.recentAuthSeconds * 1000 {
            throw .reauthenticationRequired
        }
        return auth
    }

    /// One reading of the token, its record and its account; the rules of `authenticate`.
    private func check(
        _ token: RefreshToken, alsoRead: [String], deadline: Deadline
    ) throws(AccountError) -> AuthenticatedSession {
        let uuid = token.serviceUserID
        var round = Round()
        let sessionSlot = round.get(AccountKeys.session(uuid, token.sessionID))
        let profileSlot = round.get(AccountKeys.profile(uuid)), providersSlot = round.get(AccountKeys.providers(uuid))
        let extraSlots = alsoRead.map { round.get($0) }
        let answers = store.backend.run(round, deadline: deadline)
        guard let (record, etag) = try store.session(answers.value(sessionSlot), token) else {
            throw .sessionInvalid(reason: "unknown")
        }
        let now = store.environment.now()
        let loaded = try store.account(
            uuid: uuid, profile: answers.value(profileSlot), providers: answers.value(providersSlot))
        let disabled = loaded?.providers.isActiveButDisabled == true
        switch record.classify(tokenHash: token.hash, nowMs: now, graceSeconds: store.settings.refreshReuseGraceSeconds)
        {
        case .current: break
        case .reused:
            if disabled { throw .accountDisabled }  // changes nothing, not even a revoke
            try revoke(record, etag: etag, token: token, reason: "refresh token reuse", deadline: deadline)
            throw .tokenReuse
        case let other: throw .sessionInvalid(reason: "\(other)")
        }
        guard let account = loaded else {
            throw .sessionInvalid(reason: "the account is incomplete; sign in again to complete it")
        }
        guard !account.providers.isDeleted else { throw .sessionInvalid(reason: "the account was deleted") }
        guard account.providers.accepts(record) else {
            throw .sessionInvalid(reason: "its identity was unlinked, or its sessions were ended")
        }
        if disabled { throw .accountDisabled }
        var extra: [S3Object?] = []
        for slot in extraSlots { extra.append(try answers.value(slot)) }
        return AuthenticatedSession(token: token, record: record, etag: etag, account: account, extra: extra)
    }
}

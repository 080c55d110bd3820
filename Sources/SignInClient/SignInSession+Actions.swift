import Foundation

extension SignInSession {
    /// Signs in (or up) with a provider's ID token. Pass the raw nonce you gave the provider
    /// (`SignInWithAppleNonce`). The new session replaces any other: answers still on their way for
    /// the previous one are dropped.
    public func signIn(
        with provider: Provider, idToken: String, intent: SignInIntent = .auto, nonce: String? = nil,
        fullName: String? = nil
    ) async throws(SignInError) -> SignInResult {
        let asked = generation
        let request = SignInRequest(
            provider: provider, idToken: idToken, intent: intent, nonce: nonce, fullName: fullName,
            device: configuration.device)
        let decoded = try await call(.signin, request, action: "signin", as: SignInAnswer.self)
        let answer = decoded.payload
        guard asked == generation else { throw .sessionChanged }
        let now = configuration.clock()
        let next = StoredSession(
            format: StoredSession.currentFormat, refreshToken: answer.refreshToken,
            refreshTokenExpiresAt: answer.refreshTokenExpiresAt, credentials: answer.credentials,
            storage: answer.storage, user: answer.user, signInProvider: provider, signedInAt: now,
            receivedAt: now, rotation: 0, serverClockOffset: decoded.serverTime.map { $0.timeIntervalSince(now) })
        generation &+= 1
        flight = nil
        lane = nil
        currentSessionId = nil
        loadState = .loaded
        endedToken = nil
        persist(next, evenIfReadOnly: true)
        session = next
        publish(.signedIn(next.user))
        return SignInResult(isNewUser: answer.isNewUser, user: answer.user, storage: answer.storage)
    }

    /// Signs out here at once (nothing stored, `signedOut(.userSignedOut)`, even while the store
    /// cannot be read: the user asked to be out), then tells the server; returns whether the server
    /// confirmed (false when offline, or with no token it may present: the session then simply
    /// expires there). The main app presents its token even while a refresh of it went unanswered
    /// (v5: `signout` takes the just-rotated token); a read-only process presents only the token
    /// its store holds now.
    @discardableResult
    public func signOut() async -> Bool {
        try? loadIfNeeded()
        var presentable = session
        if configuration.refreshPolicy == .readOnly {
            do throws(SignInError) {
                try adoptStoredSession()
                presentable = session
            } catch {
                // The store's token while the app settles it (judged below); none when unreadable or empty.
                presentable = error == .refreshNotAllowed ? session : nil
            }
        }
        guard session != nil || loadState == .unreadable else { return false }
        let token = presentable?.refreshToken
        end(.userSignedOut)
        guard let token else { return false }
        let request = SessionRequest(refreshToken: token, action: .signout)
        return (try? await call(.refresh, request, action: "signout", as: SignedOut.self))?.payload.signedOut ?? false
    }

    /// The account's live sessions, newest first (`current` marks this one).
    public func sessions() async throws(SignInError) -> [SessionSummary] {
        let asked = generation
        let sessions = try await withToken(.refresh, action: "list", as: SessionList.self) {
            SessionRequest(refreshToken: $0, action: .list)
        }.sessions
        if asked == generation, let current = sessions.first(where: \.current) { currentSessionId = current.sessionId }
        return sessions
    }

    /// Ends every other session of the account; returns how many. Needs a recent sign-in.
    @discardableResult
    public func signOutOtherSessions() async throws(SignInError) -> Int {
        try await withToken(.refresh, action: "signoutOthers", as: SignedOutCount.self) {
            SessionRequest(refreshToken: $0, action: .signoutOthers)
        }.signedOut
    }

    /// Ends one session of the account by its `sessionId`; this one's (marked `current` by
    /// `sessions()`) signs out here too, as `signOut()` does.
    public func signOut(sessionId: String) async throws(SignInError) {
        _ = try await withToken(.refresh, action: "signoutSession", as: SignedOut.self) {
            SessionRequest(refreshToken: $0, action: .signoutSession, sessionId: sessionId)
        }
        if sessionId == currentSessionId, session != nil { end(.userSignedOut) }
    }

    /// Links a second provider. Needs a recent sign-in (`reauthenticateThenRetry` otherwise).
    public func link(
        _ provider: Provider, idToken: String, nonce: String? = nil
    ) async throws(SignInError) -> LinkAnswer {
        let answer = try await withToken(.link, action: "link", as: LinkAnswer.self) {
            AccountRequest(refreshToken: $0, action: .link, provider: provider, idToken: idToken, nonce: nonce)
        }
        updateUser(answer.user)
        return answer
    }

    /// Unlinks a provider. Unlinking the one this session signed in with ends this session
    /// (`signedOut(.signInIdentityUnlinked)`): the server ends every session of that identity.
    public func unlink(_ provider: Provider) async throws(SignInError) -> LinkAnswer {
        let answer = try await withToken(.link, action: "unlink", as: LinkAnswer.self) {
            AccountRequest(refreshToken: $0, action: .unlink, provider: provider)
        }
        if session?.signInProvider == provider {
            end(.signInIdentityUnlinked)
        } else {
            updateUser(answer.user)
        }
        return answer
    }

    /// Deletes the account (`authorizationCode`: from a fresh Sign in with Apple, so the server can
    /// revoke Apple's tokens). Ends the session: `signedOut(.accountDeleted)`. Tell the user that an
    /// App Store subscription is not cancelled by this.
    public func deleteAccount(appleAuthorizationCode: String? = nil) async throws(SignInError) -> DeletionAnswer {
        let answer = try await withToken(.link, action: "delete", as: DeletionAnswer.self) {
            AccountRequest(refreshToken: $0, action: .delete, authorizationCode: appleAuthorizationCode)
        }
        end(.accountDeleted)
        return answer
    }

    /// Ties a StoreKit 2 purchase (`Transaction.jsonRepresentation`'s JWS, i.e. `jwsRepresentation`)
    /// to the account.
    public func claimPurchase(signedTransaction: String) async throws(SignInError) -> PurchaseClaimAnswer {
        let answer = try await withToken(.link, action: "claimPurchase", as: PurchaseClaimAnswer.self) {
            AccountRequest(refreshToken: $0, action: .claimPurchase, signedTransaction: signedTransaction)
        }
        updateUser(answer.user)
        return answer
    }

    func updateUser(_ user: User) {
        guard var next = session else { return }
        next.user = user
        persist(next)
        session = next
    }

    /// Runs a call that presents the current token: in the lane (never beside a refresh that is
    /// rotating it), dropped if the session changed meanwhile, and ending the session on a
    /// definitive answer. The main app first settles a refresh whose answer it never read (any
    /// other action with that token would be refused), and confirms a `SESSION_INVALID` by one
    /// refresh before ending anything: it may only have been behind (another process rotated, or
    /// an answer was lost; v5 refuses the just-rotated token there without revoking). The refresh
    /// succeeding, the call is made once more with the new token; `SESSION_INVALID` to it ends the
    /// session. A read-only process presents only the token its store holds now (the app may have
    /// rotated it), and an answer refusing a token the store no longer holds, or holds marked,
    /// ends nothing: it adopts the store's token and asks once more (or is told to retry later).
    func withToken<Answer: Decodable & Sendable, Request: Encodable & Sendable>(
        _ function: SignInFunction, action: String, as type: Answer.Type,
        _ makeRequest: @escaping @Sendable (String) -> Request
    ) async throws(SignInError) -> Answer {
        try loadIfNeeded()
        flushPendingStoreChange()
        guard let current = session else { throw .notSignedIn }
        let readOnly = configuration.refreshPolicy == .readOnly
        if !readOnly && current.unansweredSince != nil { _ = try await validSession(force: true) }
        var confirmed = false
        for _ in 0..<3 {
            if readOnly { try adoptStoredSession() }
            let asked = generation
            do throws(SignInError) {
                return try await inLane { () async throws -> Answer in
                    guard let token = await self.tokenIfCurrent(asked) else { throw SignInError.sessionChanged }
                    let answer = try await self.call(function, makeRequest(token), action: action, as: type).payload
                    guard await self.isCurrent(asked) else { throw SignInError.sessionChanged }
                    return answer
                }
            } catch {
                if readOnly, SignOutReason(error) != nil, storeMovedOn(from: asked) { continue }
                if !readOnly, !confirmed, error.code == .sessionInvalid, asked == generation {
                    confirmed = true
                    _ = try await validSession(force: true)  // SESSION_INVALID to it ends the session there
                    continue
                }
                endIfDefinitive(error, generation: asked)
                throw error
            }
        }
        throw .sessionChanged
    }

    func tokenIfCurrent(_ asked: UInt64) -> String? { asked == generation ? session?.refreshToken : nil }
    func isCurrent(_ asked: UInt64) -> Bool { asked == generation }

    func endIfDefinitive(_ error: SignInError, generation asked: UInt64) {
        guard asked == generation, let reason = SignOutReason(error) else { return }
        end(reason)
    }
}

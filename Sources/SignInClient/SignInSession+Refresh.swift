import Foundation

extension SignInSession {
    /// Refreshes now (joining a refresh already in flight), whatever the credentials' expiry.
    @discardableResult
    public func refresh() async throws(SignInError) -> User {
        try await validSession(force: true).user
    }

    /// The session, refreshed first when `force` is set or its credentials expire within the
    /// margin. The rules (docs/client.md, "Refresh discipline"):
    /// - one refresh in flight per session, keyed by the token it presents; everyone joins it;
    /// - when none is in flight, the store is re-read first (another process may have rotated);
    /// - `replacing`: refresh only if these are still the current credentials (S3's ExpiredToken).
    func validSession(force: Bool, replacing stale: String? = nil) async throws(SignInError) -> StoredSession {
        for _ in 0..<4 {
            try loadIfNeeded()
            flushPendingStoreChange()
            guard let current = session else { throw .notSignedIn }
            if let flight, flight.token == current.refreshToken, flight.generation == generation {
                return try await Self.value(of: flight.task)
            }
            if let stale, current.credentials.accessKeyId != stale { return current }
            if !force && !needsRefresh(current) { return current }
            if adoptNewerStoredSession(than: current) { continue }
            guard configuration.refreshPolicy == .refreshes else {
                // A read-only process uses credentials until they expire, then waits for the app.
                if current.credentials.expiration > configuration.clock() { return current }
                throw .refreshNotAllowed
            }
            let token = current.refreshToken
            let generation = self.generation
            let task = Task<StoredSession, any Error> {
                try await self.inLane { try await self.performRefresh(presenting: token, generation: generation) }
            }
            flight = Flight(token: token, generation: generation, task: task)
            return try await Self.value(of: task)
        }
        throw .sessionChanged
    }

    func needsRefresh(_ session: StoredSession) -> Bool {
        let now = configuration.clock()
        if session.credentials.expiration <= now { return true }
        guard session.credentials.expiration.timeIntervalSince(now) <= configuration.credentialsMargin else {
            return false
        }
        return now.timeIntervalSince(session.receivedAt) >= configuration.minimumRefreshInterval
    }

    /// Adopts a newer session another process wrote to a shared store. The main app adopts only a
    /// later rotation of its own account; a read-only extension follows whatever the app stored
    /// (a rotation, another account, or nothing: the app signed out). Never when this process owes
    /// the store a write (its memory is the newer one then), never on a read that fails.
    func adoptNewerStoredSession(than current: StoredSession) -> Bool {
        guard pendingStoreChange == .none else { return false }
        let data: Data?
        do { data = try configuration.store.load() } catch { return false }  // locked: unknown, keep
        let readOnly = configuration.refreshPolicy == .readOnly
        guard let data else {
            guard readOnly else { return false }
            end(.userSignedOut)
            return true
        }
        guard let stored = try? StoredSession.decode(data), stored.refreshToken != current.refreshToken else {
            return false
        }
        let sameAccount = stored.user.serviceUserID == current.user.serviceUserID
        guard readOnly || (sameAccount && stored.rotation > current.rotation) else { return false }
        if !sameAccount { generation &+= 1 }
        session = stored
        publish(sameAccount ? .refreshed(stored.user) : .signedIn(stored.user))
        return true
    }

    /// One refresh: the same token on every attempt; attempts start only within the retry window
    /// (inside the server's grace), so a lost answer's retry is never reuse. The answer is adopted
    /// only if the session is still the one that asked (same generation and token).
    func performRefresh(presenting token: String, generation: UInt64) async throws(SignInError) -> StoredSession {
        defer {
            if let flight, flight.token == token, flight.generation == generation { self.flight = nil }
        }
        guard generation == self.generation, let current = session else { throw .sessionChanged }
        guard current.refreshToken == token else { return current }
        let started = configuration.clock()
        var delays = configuration.retryDelays[...]
        while true {
            do throws(SignInError) {
                let answer = try await call(
                    .refresh, SessionRequest(refreshToken: token, action: .refresh), action: "refresh",
                    as: RefreshAnswer.self)
                // A late answer after sign-out or an account switch belongs to a session that is gone.
                guard generation == self.generation, let previous = session else { throw SignInError.sessionChanged }
                let next = StoredSession(
                    format: StoredSession.currentFormat, refreshToken: answer.refreshToken,
                    refreshTokenExpiresAt: answer.refreshTokenExpiresAt, credentials: answer.credentials,
                    storage: answer.storage, user: answer.user, signInProvider: previous.signInProvider,
                    signedInAt: previous.signedInAt, receivedAt: configuration.clock(), rotation: previous.rotation + 1)
                persist(next)  // before anyone sees it; a failed write keeps `next` in memory and retries
                session = next
                publish(.refreshed(next.user))
                return next
            } catch {
                guard generation == self.generation else { throw .sessionChanged }
                if let reason = SignOutReason(error) {
                    end(reason)
                    throw error
                }
                let elapsed = configuration.clock().timeIntervalSince(started)
                if error.isRetryable, let delay = delays.popFirst(),
                    elapsed + delay < configuration.refreshRetryWindow
                {
                    try? await Task.sleep(for: .seconds(delay))
                    guard generation == self.generation else { throw .sessionChanged }
                    continue
                }
                throw error
            }
        }
    }

    /// Starts a foreground ticker: every `interval`, `credentials()` (which refreshes within the
    /// margin); a failure is retried on the next tick. Stop it when the app leaves the foreground.
    public func startAutomaticRefresh(every interval: TimeInterval = 30) {
        guard ticker == nil, configuration.refreshPolicy == .refreshes else { return }
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard let self else { return }
                guard await self.hasSession() else { continue }
                _ = try? await self.credentials()
            }
        }
    }

    public func stopAutomaticRefresh() {
        ticker?.cancel()
        ticker = nil
    }

    func hasSession() -> Bool { session != nil }

    /// Sends one event and decodes its answer; every failure becomes a `SignInError`.
    nonisolated func call<Answer: Decodable & Sendable>(
        _ function: SignInFunction, _ request: some Encodable & Sendable, action: String, as type: Answer.Type
    ) async throws(SignInError) -> Answer {
        let event: Data
        do { event = try WireCoding.encoder().encode(request) } catch {
            throw .malformedAnswer(action: action, path: "", detail: "request not encodable")
        }
        if Task.isCancelled { throw .cancelled }
        let answer: TransportAnswer
        do { answer = try await configuration.transport.send(event, to: function) } catch let error as SignInError {
            throw error
        } catch {
            throw .offline(detail: "transport failed")
        }
        return try WireCoding.payload(type, from: answer, action: action)
    }
}

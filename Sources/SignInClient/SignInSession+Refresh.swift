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
    /// - when none is in flight, the store is re-read first (another process may have rotated, or
    ///   may have an attempt of the same token at the server now: then it is waited for);
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
            if !force && !isUnsettled(current) && !needsRefresh(current) { return current }
            if adoptNewerStoredSession(than: current) { continue }
            guard configuration.refreshPolicy == .refreshes else {
                // A read-only process uses credentials until they expire, then waits for the app.
                if current.credentials.expiration > current.serverNow(deviceNow: configuration.clock()) {
                    return current
                }
                throw .refreshNotAllowed
            }
            if await waitedForAnotherProcess(current) { continue }
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

    /// Due when the credentials expire within the margin, judged on the server's clock (the
    /// offset measured at the last answer): a device clock hours ahead or behind neither refreshes
    /// on every call nor keeps expired credentials. Never again within `minimumRefreshInterval`
    /// of the last answer, whatever the clocks say (one more rotation would not make the
    /// credentials any newer); a device clock that went back since then does not count as recent.
    func needsRefresh(_ session: StoredSession) -> Bool {
        if receivedRecently(session) { return false }
        let left = session.credentials.expiration.timeIntervalSince(session.serverNow(deviceNow: configuration.clock()))
        return left <= configuration.credentialsMargin
    }

    func receivedRecently(_ session: StoredSession) -> Bool {
        let sinceReceived = configuration.clock().timeIntervalSince(session.receivedAt)
        return sinceReceived >= 0 && sinceReceived < configuration.minimumRefreshInterval
    }

    /// A refresh of this token left and no answer was read (here, in an earlier process, or by a
    /// process that is gone): settle it at the next call, with the same token, however late
    /// (contract v5), unless credentials just arrived (a store that cannot be written keeps the
    /// token marked: that must not turn into a refresh at every call).
    func isUnsettled(_ session: StoredSession) -> Bool {
        configuration.refreshPolicy == .refreshes && session.unansweredSince != nil && !receivedRecently(session)
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

    /// One refresh: the same token on every attempt, each marked in the store before it leaves
    /// (SignInSession+InFlight.swift); a mark that cannot be stored sends nothing. An attempt
    /// whose answer we could not read (lost, timed out, unreadable, a 5xx from behind the front
    /// door) may have rotated the token: it is retried on the backoff, and after it whenever the
    /// token is next needed, with no time limit (contract v5: the server accepts it until its
    /// successor is presented). Only a definitive answer ends the session. The answer is adopted
    /// only if the session is still the one that asked (same generation and token).
    func performRefresh(presenting token: String, generation: UInt64) async throws(SignInError) -> StoredSession {
        defer {
            if let flight, flight.token == token, flight.generation == generation { self.flight = nil }
        }
        guard generation == self.generation, let current = session else { throw .sessionChanged }
        guard current.refreshToken == token else { return current }
        var mayHaveRotated = current.unansweredSince != nil
        var delays = configuration.retryDelays[...]
        while true {
            try markInFlight(token)
            do throws(SignInError) {
                let answer = try await call(
                    .refresh, SessionRequest(refreshToken: token, action: .refresh), action: "refresh",
                    as: RefreshAnswer.self)
                // A late answer after sign-out or an account switch belongs to a session that is gone.
                guard generation == self.generation, let previous = session else { throw SignInError.sessionChanged }
                let next = settle(previous, by: answer, presented: token)
                publish(.refreshed(next.user))
                return next
            } catch {
                guard generation == self.generation else { throw .sessionChanged }
                if let reason = SignOutReason(error) {
                    end(reason)
                    throw error
                }
                if error.mayHaveRotated { mayHaveRotated = true }
                if error.isRetryable, let delay = delays.popFirst() {
                    try? await Task.sleep(for: .seconds(delay))
                    guard generation == self.generation else { throw .sessionChanged }
                    continue
                }
                if !mayHaveRotated { clearInFlightMark(token) }
                throw error
            }
        }
    }

    /// The session after a refresh answer: the rotated token, the server's clock offset, nothing unanswered.
    func rotated(_ previous: StoredSession, by answer: Decoded<RefreshAnswer>) -> StoredSession {
        let received = configuration.clock()
        let data = answer.payload
        return StoredSession(
            format: StoredSession.currentFormat, refreshToken: data.refreshToken,
            refreshTokenExpiresAt: data.refreshTokenExpiresAt, credentials: data.credentials, storage: data.storage,
            user: data.user, signInProvider: previous.signInProvider, signedInAt: previous.signedInAt,
            receivedAt: received, rotation: previous.rotation + 1,
            serverClockOffset: answer.serverTime.map { $0.timeIntervalSince(received) } ?? previous.serverClockOffset)
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
    ) async throws(SignInError) -> Decoded<Answer> {
        let event: Data
        do { event = try WireCoding.encoder().encode(request) } catch {
            throw .malformedAnswer(action: action, path: "", detail: "request not encodable")
        }
        if Task.isCancelled { throw .cancelled }
        let answer: TransportAnswer
        do { answer = try await configuration.transport.send(event, to: function) } catch let error as SignInError {
            throw error
        } catch {
            // A transport that cannot tell whether the request left: assume it may have (docs/client.md).
            throw .answerLost(detail: "transport failed")
        }
        return try WireCoding.payload(type, from: answer, action: action)
    }
}

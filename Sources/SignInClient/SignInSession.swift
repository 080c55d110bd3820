import Foundation

/// The app's one session object: sign-in, the account's actions, the STS credentials for S3, and
/// the auth state, over one stored session. Create ONE per store and keep it for the life of the
/// process (two objects over one store could refresh one token twice).
///
/// Every call that presents the refresh token runs in one lane, in order; refreshes are single
/// flight, keyed by the token they present, and every path (credentials, the foreground ticker,
/// `refresh()`, the S3 resolver) joins the one in flight (SignInSession+Refresh.swift).
public actor SignInSession {
    enum LoadState { case notLoaded, absent, loaded, unreadable }
    enum PendingStoreChange { case none, save, remove }

    struct Flight {
        var token: String
        var generation: UInt64
        var task: Task<StoredSession, any Error>
    }

    let configuration: SignInConfiguration
    /// Names this object in the store's in-flight mark: another process tells its own attempts from ours.
    let instanceID = UUID().uuidString
    var session: StoredSession?
    var loadState = LoadState.notLoaded
    /// Grows at every sign-in, sign-out and end of session: an answer to a call made under an
    /// older generation is dropped (it belongs to a session that is gone).
    var generation: UInt64 = 0
    var flight: Flight?
    /// The lane's last operation: token-presenting calls run one after another.
    var lane: Task<Void, Never>?
    /// A store write that failed (a user update, a sign-in, a sign-out; never a rotated token, which
    /// is kept only once stored): memory is newer than the store until it succeeds.
    var pendingStoreChange = PendingStoreChange.none
    var storeRetry: Task<Void, Never>?
    var observers: [UUID: AsyncStream<AuthState>.Continuation] = [:]
    var ticker: Task<Void, Never>?
    /// A read-only process: the token whose session ended here (a definitive answer to it). The
    /// shared store may still hold it until the app (its owner) clears it; it is not adopted again.
    var endedToken: String?
    /// The `sessionId` the last `sessions()` marked `current`: `signOut(sessionId:)` of it signs out here too.
    var currentSessionId: String?

    public init(configuration: SignInConfiguration) {
        self.configuration = configuration
    }

    /// The signed-in user, nil when signed out (or when the store cannot be read yet).
    public var currentUser: User? {
        try? loadIfNeeded()
        return session?.user
    }

    /// Where the user's files go, nil when signed out.
    public var storage: StorageLocation? {
        try? loadIfNeeded()
        return session?.storage
    }

    /// The auth state: the stored state at once, then every change (signed in, refreshed, signed out).
    public func authStates() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream<AuthState>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        let state = currentState()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(state)
        return stream
    }

    func currentState() -> AuthState {
        do { try loadIfNeeded() } catch { return .unknown }
        if let session { return .signedIn(session.user) }
        return .signedOut(.noSession)
    }

    func removeObserver(_ id: UUID) { observers[id] = nil }

    func publish(_ state: AuthState) {
        for continuation in observers.values { continuation.yield(state) }
    }

    /// Reads the store: once when it holds a session; again at every call while it held none (an
    /// extension sees the app's sign-in; a Keychain that answered "not found" while the device was
    /// still locked is asked again). A read that throws leaves the state unknown: it never counts
    /// as "signed out" and never clears anything.
    func loadIfNeeded() throws(SignInError) {
        guard loadState != .loaded, pendingStoreChange == .none else { return }
        let data: Data?
        do { data = try configuration.store.load() } catch {
            loadState = .unreadable
            throw .storeUnavailable(detail: "\(error)")
        }
        var found: StoredSession?
        do { found = try data.map(StoredSession.decode) } catch {
            loadState = .unreadable
            throw error
        }
        if let stored = found, stored.refreshToken == endedToken { found = nil }
        let rediscovered = loadState == .absent || loadState == .unreadable
        session = found
        loadState = found == nil ? .absent : .loaded
        if let found, rediscovered { publish(.signedIn(found.user)) }
    }

    /// Saves `next` (or records that the save is owed and retries it): the caller publishes after.
    /// A read-only process never writes or clears the shared store (its copy may be older than the
    /// app's: writing it back would bring a rotated-out token back), except for a sign-in made in it.
    func persist(_ next: StoredSession?, evenIfReadOnly: Bool = false) {
        guard configuration.refreshPolicy == .refreshes || evenIfReadOnly else { return }
        do {
            if let next { try configuration.store.save(try next.encoded()) } else { try configuration.store.remove() }
            pendingStoreChange = .none
        } catch {
            pendingStoreChange = next == nil ? .remove : .save
            scheduleStoreRetry()
        }
    }

    /// Retries an owed store write now; every public call starts with it.
    func flushPendingStoreChange() {
        guard pendingStoreChange != .none else { return }
        persist(pendingStoreChange == .remove ? nil : session)
    }

    private func scheduleStoreRetry() {
        guard storeRetry == nil else { return }
        storeRetry = Task {
            for delay in [1.0, 2, 4, 8, 16] {
                try? await Task.sleep(for: .seconds(delay))
                if self.retryStoreOnce() { break }
            }
            self.storeRetryEnded()
        }
    }

    private func retryStoreOnce() -> Bool {
        flushPendingStoreChange()
        return pendingStoreChange == .none
    }

    private func storeRetryEnded() { storeRetry = nil }

    /// Ends the session locally: a new generation (late answers are dropped), no refresh in
    /// flight, nothing stored (in the main app; a read-only process leaves the store to the app
    /// and remembers the ended token), then `signedOut(reason)`.
    func end(_ reason: SignOutReason) {
        if configuration.refreshPolicy == .readOnly { endedToken = session?.refreshToken ?? endedToken }
        generation &+= 1
        flight = nil
        lane = nil  // the old session's calls drop their answers; the next session waits for none
        currentSessionId = nil
        session = nil
        loadState = .absent
        persist(nil)
        publish(.signedOut(reason))
    }

    /// Runs `operation` after every earlier token-presenting operation has finished.
    func inLane<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws(SignInError) -> T {
        let previous = lane
        let task = Task<T, any Error> {
            _ = await previous?.value
            return try await operation()
        }
        lane = Task { _ = try? await task.value }
        return try await Self.value(of: task)
    }

    static func value<T>(of task: Task<T, any Error>) async throws(SignInError) -> T {
        do { return try await task.value } catch let error as SignInError { throw error } catch {
            throw .cancelled
        }
    }
}

import Foundation
import Testing

@testable import SignInClient

/// Signs in with `rt-0`/`AK0`; each refresh answers `rt-N`/`AKN` after `hold`, or what `fault` says.
func backend(
    expiresIn: TimeInterval = 100, hold: Duration = .zero, gate: Gate? = nil,
    fault: (@Sendable (Int) throws -> TransportAnswer?)? = nil
) -> ScriptedTransport {
    let counter = Counter()
    return ScriptedTransport { function, _ in
        if function == .signin {
            return Answers.ok(Answers.session(token: "rt-0", key: "AK0", expiresIn: expiresIn, newUser: true))
        }
        let n = counter.next()
        if let answer = try fault?(n) { return answer }
        try await Task.sleep(for: hold)
        await gate?.pass()
        return Answers.ok(Answers.session(token: "rt-\(n)", key: "AK\(n)"))
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

@Suite struct SignInSessionTests {
    @Test func fiftyConcurrentCredentialsCallsMakeOneRefresh() async throws {
        let transport = backend(hold: .milliseconds(200))
        let session = try await signedInSession(transport)
        let keys = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await session.credentials().accessKeyId } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(keys) == ["AK1"])
        #expect(transport.count(.refresh, action: "refresh") == 1)
    }

    @Test(arguments: [
        ("SESSION_INVALID", 401, SignOutReason.sessionEnded), ("ACCOUNT_NOT_FOUND", 404, .accountNotFound),
        ("ACCOUNT_DISABLED", 403, .accountDisabled),
    ])
    func definitiveAnswersClearTheSession(code: String, status: Int, reason: SignOutReason) async throws {
        let store = InMemorySessionStore()
        let session = try await signedInSession(backend { _ in Answers.failure(code, status: status) }, store: store)
        var states = await session.authStates().makeAsyncIterator()
        #expect(await states.next() == .signedIn(try #require(await session.currentUser)))
        await #expect(throws: SignInError.server(ErrorCode(rawValue: code), message: "m", status: status)) {
            try await session.refresh()
        }
        #expect(await states.next() == .signedOut(reason))
        #expect(try store.load() == nil)
        #expect(await session.currentUser == nil)
    }

    @Test(arguments: [
        Answers.failure("UPSTREAM_UNAVAILABLE", status: 503),
        TransportAnswer(statusCode: 502, body: Data("<html>".utf8)),
        Answers.failure("CONFLICT", status: 409), Answers.failure("INVALID_REQUEST", status: 400),
        Answers.ok(Data(#"{"success":true,"data":{"refreshToken":"x"}}"#.utf8)),
    ])
    func otherFailuresKeepTheSession(answer: TransportAnswer) async throws {
        let store = InMemorySessionStore()
        let session = try await signedInSession(backend { _ in answer }, store: store)
        await #expect(throws: SignInError.self) { try await session.refresh() }
        #expect(try store.load() != nil)
        #expect(await session.currentUser != nil)
    }

    @Test func lostAnswersAreRetriedWithTheSameTokenAndTheNewestAnswerWins() async throws {
        let transport = backend { n in
            if n == 1 { throw SignInError.offline(detail: "connection lost") }
            if n == 2 { throw SignInError.timedOut }
            return nil
        }
        let store = InMemorySessionStore()
        let session = try await signedInSession(transport, store: store)
        try await session.refresh()
        #expect(transport.presentedTokens() == ["rt-0", "rt-0", "rt-0"])
        #expect(try await session.credentials().accessKeyId == "AK3")
        #expect(try StoredSession.decode(try #require(try store.load())).refreshToken == "rt-3")
    }

    @Test func aMalformedAnswerNamesTheFieldPathAndTheAction() async throws {
        let broken = Answers.envelope([
            "user": Answers.user(), "refreshToken": "rt-1", "refreshTokenExpiresAt": "2026-01-01T00:00:00Z",
            "storage": ["bucket": "b", "region": "r", "prefix": "p"],
            "credentials": ["accessKeyId": "AK", "secretAccessKey": "s", "sessionToken": "t"],
        ])
        let session = try await signedInSession(backend { _ in Answers.ok(broken) })
        await #expect(
            throws: SignInError.malformedAnswer(
                action: "refresh", path: "data.credentials.expiration", detail: "missing")
        ) { try await session.refresh() }
        let wrongType = Answers.envelope(["sessions": [["sessionId": 7]]])
        let lister = try await signedInSession(backend { _ in Answers.ok(wrongType) })
        await #expect(
            throws: SignInError.malformedAnswer(
                action: "list", path: "data.sessions[0].sessionId", detail: "not String")
        ) {
            _ = try await lister.sessions()
        }
    }

    @Test(.timeLimit(.minutes(1))) func aRefreshAnswerAfterSignOutIsDropped() async throws {
        let store = InMemorySessionStore()
        let gate = Gate()
        let session = try await signedInSession(backend(gate: gate), store: store)
        let refresh = Task { try await session.refresh() }
        await gate.reached()  // the refresh is at the server...
        await session.signOut()
        gate.open()  // ...and answers only after the sign-out
        await #expect(throws: SignInError.sessionChanged) { try await refresh.value }
        #expect(try store.load() == nil)
        #expect(await session.currentUser == nil)
    }

    @Test func aNewerStoredFormatIsUnknownNotSignedOut() async throws {
        let store = InMemorySessionStore(Data(#"{"format": 99}"#.utf8))
        let session = SignInSession(configuration: SignInConfiguration(transport: backend(), store: store))
        var states = await session.authStates().makeAsyncIterator()
        #expect(await states.next() == .unknown)
        await #expect(
            throws: SignInError.storeUnavailable(detail: "stored session format 99 is newer than this client")
        ) {
            _ = try await session.credentials()
        }
        #expect(try store.load() != nil)
    }

    @Test func aReadOnlyProcessNeverRefreshes() async throws {
        let transport = backend(expiresIn: -5)
        let store = InMemorySessionStore()
        _ = try await signedInSession(transport, store: store)
        let extensionSession = SignInSession(
            configuration: SignInConfiguration(
                transport: transport, store: store, refreshPolicy: .readOnly, minimumRefreshInterval: 0))
        var states = await extensionSession.authStates().makeAsyncIterator()
        guard case .signedIn = await states.next() else {
            Issue.record("stored state not emitted at once")
            return
        }
        await #expect(throws: SignInError.refreshNotAllowed) { _ = try await extensionSession.credentials() }
        #expect(transport.count(.refresh) == 0)
    }

    @Test func expiredTokenRefreshesOnceAndRetries() async throws {
        struct ExpiredToken: Error {}
        let transport = backend(expiresIn: 3600)
        let session = try await signedInSession(transport)
        let used = try await session.withCredentials(retryingOnceIf: { $0 is ExpiredToken }) { credentials in
            if credentials.accessKeyId == "AK0" { throw ExpiredToken() }
            return credentials.accessKeyId
        }
        #expect(used == "AK1")
        #expect(transport.count(.refresh) == 1)
    }
}

final class FailingStore: SessionStore, @unchecked Sendable {
    private let inner = InMemorySessionStore()
    private let lock = NSLock()
    private var remaining = 0
    var failures: Int {
        get { lock.withLock { remaining } }
        set { lock.withLock { remaining = newValue } }
    }
    func load() throws -> Data? { try inner.load() }
    func save(_ data: Data) throws {
        let fail = lock.withLock { () -> Bool in
            defer { remaining = max(0, remaining - 1) }
            return remaining > 0
        }
        if fail { throw SessionStoreError("injected") }
        try inner.save(data)
    }
    func remove() throws { try inner.remove() }
}

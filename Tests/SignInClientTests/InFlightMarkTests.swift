import Foundation
import Testing

@testable import SignInClient

/// Issue 32, contract v5 ("The app's clients"): the "in flight" mark is stored before a refresh
/// leaves (nothing is sent when it cannot be), the rotated token is stored before it is presented
/// (a store that cannot be written keeps the old token), and another process of the app or an
/// extension that finds the mark neither presents the same token beside it nor anything else.
@Suite struct InFlightMarkTests {
    /// Saves of a session holding `token` fail while `failing` is set: the exact moment a rotated
    /// token (and nothing else) cannot be stored. Counts loads (a process polling the store).
    final class Store: SessionStore, @unchecked Sendable {
        let inner = InMemorySessionStore()
        private let lock = NSLock()
        private var refusing: String?
        private var failAll = 0
        private(set) var loads = 0
        func refuse(_ token: String?) { lock.withLock { refusing = token } }
        func failNextWrites(_ count: Int) { lock.withLock { failAll = count } }
        var loadCount: Int { lock.withLock { loads } }
        func load() throws -> Data? {
            lock.withLock { loads += 1 }
            return try inner.load()
        }
        func save(_ data: Data) throws {
            let fail = lock.withLock { () -> Bool in
                if failAll > 0 {
                    failAll -= 1
                    return true
                }
                return refusing.map { String(decoding: data, as: UTF8.self).contains("\"\($0)\"") } ?? false
            }
            if fail { throw SessionStoreError("injected write failure") }
            try inner.save(data)
        }
        func remove() throws { try inner.remove() }
        func stored() throws -> StoredSession { try StoredSession.decode(try #require(try inner.load())) }
    }

    /// `backend(...)`, and an empty list for `list`.
    func listing(expiresIn: TimeInterval = 100, gate: Gate? = nil) -> ScriptedTransport {
        let inner = backend(expiresIn: expiresIn, gate: gate)
        return ScriptedTransport { function, event in
            if event["action"] as? String == "list" { return Answers.ok(Answers.envelope(["sessions": [] as [Any]])) }
            return try await inner.respond(function, event)
        }
    }

    @Test func theMarkIsStoredBeforeTheRequestLeaves() async throws {
        let store = Store()
        let seen = Counter()
        let transport = ScriptedTransport { function, _ in
            if function == .signin { return Answers.ok(Answers.session(token: "rt-0", key: "AK0", newUser: true)) }
            // At the server: what a relaunch after a kill right now would find in the store.
            if (try? store.stored().unansweredSince) != nil { _ = seen.next() }
            return Answers.ok(Answers.session(token: "rt-1", key: "AK1"))
        }
        let session = try await signedInSession(transport, store: store)
        try await session.refresh()
        #expect(seen.next() == 2)  // the one refresh found its mark stored
        #expect(try store.stored().refreshToken == "rt-1")
        #expect(try store.stored().unansweredSince == nil)  // the answer read clears it
    }

    @Test func aMarkThatCannotBeStoredSendsNothing() async throws {
        let store = Store()
        let transport = backend()
        let session = try await signedInSession(transport, store: store)
        store.failNextWrites(1)
        await #expect(throws: SignInError.self) { try await session.refresh() }
        #expect(transport.count(.refresh) == 0)
        #expect(await session.currentUser != nil)  // kept: retry later
        try await session.refresh()
        #expect(transport.presentedTokens() == ["rt-0"])
    }

    @Test func aRotatedTokenThatCannotBeStoredIsNeverPresented() async throws {
        let store = Store()
        let transport = listing()
        let session = SignInSession(configuration: SignInConfiguration(transport: transport, store: store))
        _ = try await session.signIn(with: .apple, idToken: "id-token")
        store.refuse("rt-1")
        try await session.refresh()
        #expect(try await session.credentials().accessKeyId == "AK1")  // the answer's credentials are used
        #expect(try store.stored().refreshToken == "rt-0")  // the old token, which the server still accepts
        store.refuse(nil)
        _ = try await session.sessions()  // settles with the stored token first, then lists with its successor
        #expect(transport.presentedTokens() == ["rt-0", "rt-0", "rt-2"])
        #expect(try store.stored().refreshToken == "rt-2")
    }

    @Test(.timeLimit(.minutes(1))) func aSecondAppProcessWaitsForTheFirstsRefreshInsteadOfPresentingItsToken()
        async throws
    {
        let store = Store()
        let gate = Gate()
        let transport = backend(gate: gate)
        let first = try await signedInSession(transport, store: store)
        let second = SignInSession(
            configuration: SignInConfiguration(transport: transport, store: store, minimumRefreshInterval: 0))
        #expect(await second.currentUser != nil)
        let refreshing = Task { try await first.refresh() }
        await gate.reached()  // the first process's refresh is at the server, its answer not back
        let loads = store.loadCount
        let other = Task { try await second.refresh() }
        for _ in 0..<500 where store.loadCount < loads + 3 && transport.count(.refresh) < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        gate.open()
        _ = try await refreshing.value
        _ = try await other.value
        // one refresh of rt-0; the second process adopted rt-1 and rotated that
        #expect(transport.presentedTokens() == ["rt-0", "rt-1"])
        #expect(try store.stored().refreshToken == "rt-2")
    }

    @Test(.timeLimit(.minutes(1))) func anExtensionPresentsNothingWhileTheAppsRefreshIsInFlight() async throws {
        let store = Store()
        let gate = Gate()
        let transport = listing(expiresIn: 3600, gate: gate)
        let app = try await signedInSession(transport, store: store)
        let appex = SignInSession(
            configuration: SignInConfiguration(transport: transport, store: store, refreshPolicy: .readOnly))
        let refreshing = Task { try await app.refresh() }
        await gate.reached()
        #expect(try await appex.credentials().accessKeyId == "AK0")  // cached credentials stay usable
        await #expect(throws: SignInError.refreshNotAllowed) { _ = try await appex.sessions() }
        #expect(transport.count(.refresh, action: "list") == 0)
        gate.open()
        _ = try await refreshing.value
        _ = try await appex.sessions()  // the app's rotation, adopted
        #expect(transport.events().last?["refreshToken"] as? String == "rt-1")
    }
}

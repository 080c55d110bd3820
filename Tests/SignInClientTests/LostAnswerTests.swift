import Foundation
import Testing

@testable import SignInClient

/// Issue 32, contract v5 ("A phone's life never ends a session"): a lost answer is retried with
/// the same token whenever credentials are next needed, with no time window; only a definitive
/// answer ends a session, and a `SESSION_INVALID` to any other action is first confirmed by one
/// refresh (the client may only have been behind).
@Suite struct LostAnswerTests {
    static let lost = SignInError.answerLost(detail: "connection lost")

    /// A session over `transport` with a clock the test moves and a short backoff.
    func session(_ transport: ScriptedTransport, _ store: any SessionStore, _ clock: TestClock) -> SignInSession {
        SignInSession(
            configuration: SignInConfiguration(
                transport: transport, store: store, retryDelays: [0.01, 0.01], minimumRefreshInterval: 0,
                clock: { clock.now() }))
    }

    @Test func aLostAnswerIsRetriedWithTheSameTokenAnHourLater() async throws {
        let clock = TestClock()
        let transport = backend { n in
            if n <= 3 { throw Self.lost }
            return nil
        }
        let store = InMemorySessionStore()
        let session = session(transport, store, clock)
        _ = try await session.signIn(with: .apple, idToken: "id-token")
        await #expect(throws: Self.lost) { try await session.refresh() }
        clock.advance(3600)  // the phone slept, far past the server's grace
        try await session.refresh()  // the same token again: v5 accepts it until its successor is presented
        #expect(transport.presentedTokens() == ["rt-0", "rt-0", "rt-0", "rt-0"])
        #expect(try StoredSession.decode(try #require(try store.load())).refreshToken == "rt-4")
        #expect(await session.currentUser != nil)
    }

    @Test func aRelaunchAnHourAfterALostAnswerRetriesTheMarkedToken() async throws {
        let clock = TestClock()
        let inner = backend { n in
            if n == 1 { throw Self.lost }
            return nil
        }
        let transport = ScriptedTransport { function, event in
            if event["action"] as? String == "list" { return Answers.ok(Answers.envelope(["sessions": [] as [Any]])) }
            return try await inner.respond(function, event)
        }
        let store = InMemorySessionStore()
        let first = SignInSession(
            configuration: SignInConfiguration(
                transport: transport, store: store, retryDelays: [], clock: { clock.now() }))
        _ = try await first.signIn(with: .apple, idToken: "id-token")
        await #expect(throws: Self.lost) { try await first.refresh() }
        #expect(try StoredSession.decode(try #require(try store.load())).unansweredSince != nil)
        clock.advance(3600)
        let relaunched = session(transport, store, clock)  // the next process: only the store tells it
        #expect(try await relaunched.sessions().isEmpty)
        // settled first (the marked token again), then the list with the new one
        #expect(transport.presentedTokens() == ["rt-0", "rt-0", "rt-2"])
        #expect(try store.load() != nil)
    }

    @Test func signOutPresentsTheTokenAfterALostAnswerHoweverLate() async throws {
        let server = SignOutRulesTests.Server()
        let clock = TestClock()
        let store = InMemorySessionStore()
        let session = SignInSession(
            configuration: SignInConfiguration(
                transport: server.transport, store: store, retryDelays: [0.01, 0.01], clock: { clock.now() }))
        _ = try await session.signIn(with: .apple, idToken: "id-token")
        server.lose(true)
        await #expect(throws: Self.lost) { try await session.refresh() }
        clock.advance(3600)
        #expect(await session.signOut())  // v5: signout takes the just-rotated token
        #expect(server.transport.events().last?["refreshToken"] as? String == "rt-0")
        #expect(try store.load() == nil)
    }

    /// `list` answers SESSION_INVALID to `behind` (a token another process or a lost answer rotated
    /// out), the rest as the functions do; a refresh answers `refreshAnswer` when set.
    final class BehindServer: @unchecked Sendable {
        let behind: String
        let refreshAnswer: TransportAnswer?
        init(behind: String, refreshAnswer: TransportAnswer? = nil) {
            self.behind = behind
            self.refreshAnswer = refreshAnswer
        }
        lazy var transport = ScriptedTransport { [unowned self] function, event in
            let token = event["refreshToken"] as? String
            switch (function, event["action"] as? String) {
            case (.signin, _): return Answers.ok(Answers.session(token: "rt-0", key: "AK0", newUser: true))
            case (.refresh, "refresh"?):
                return self.refreshAnswer ?? Answers.ok(Answers.session(token: "rt-1", key: "AK1"))
            case (.refresh, "list"?) where token == self.behind:
                return Answers.failure("SESSION_INVALID", status: 401)
            default: return Answers.ok(Answers.envelope(["sessions": [] as [Any]]))
            }
        }
    }

    @Test func aSessionInvalidToAnotherActionIsConfirmedByARefreshThenRetried() async throws {
        let server = BehindServer(behind: "rt-0")
        let store = InMemorySessionStore()
        let session = try await signedInSession(server.transport, store: store)
        #expect(try await session.sessions().isEmpty)  // answered, after the refresh caught up
        #expect(server.transport.presentedTokens() == ["rt-0", "rt-0", "rt-1"])
        #expect(server.transport.events().compactMap { $0["action"] as? String } == ["list", "refresh", "list"])
        #expect(await session.currentUser != nil)
        #expect(try StoredSession.decode(try #require(try store.load())).refreshToken == "rt-1")
    }

    @Test func aSessionInvalidConfirmedByTheRefreshEndsTheSession() async throws {
        let server = BehindServer(behind: "rt-0", refreshAnswer: Answers.failure("SESSION_INVALID", status: 401))
        let store = InMemorySessionStore()
        let session = try await signedInSession(server.transport, store: store)
        await #expect(throws: SignInError.self) { _ = try await session.sessions() }
        #expect(server.transport.events().compactMap { $0["action"] as? String } == ["list", "refresh"])
        #expect(await session.currentUser == nil)
        #expect(try store.load() == nil)
    }
}

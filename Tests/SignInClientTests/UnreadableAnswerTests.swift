import Foundation
import Testing

@testable import SignInClient

/// Defects 5 and 6 of issue 24 and the rule behind them: an answer the client could not read (lost,
/// unreadable, a 5xx from behind the front door) is retried with the same token inside the grace,
/// and never after it; a throttle (429) is "unavailable, retry later".
@Suite struct UnreadableAnswerTests {
    static let corrupted = TransportAnswer(statusCode: 200, body: Data(#"{"success":true,"data":{"refre"#.utf8))

    @Test func anUnreadableRefreshAnswerIsRetriedWithTheSameToken() async throws {
        let transport = backend { n in n == 1 ? Self.corrupted : nil }
        let store = InMemorySessionStore()
        let session = try await signedInSession(transport, store: store)
        try await session.refresh()
        #expect(transport.presentedTokens() == ["rt-0", "rt-0"])
        #expect(try StoredSession.decode(try #require(try store.load())).refreshToken == "rt-2")
    }

    @Test func aThrottleIsUnavailableAndRetried() async throws {
        let throttled = TransportAnswer(statusCode: 429, body: Data(#"{"Message":"Too Many Requests"}"#.utf8))
        #expect(throws: SignInError.unavailable(status: 429)) {
            _ = try WireCoding.payload(SignedOut.self, from: throttled, action: "signout")
        }
        #expect(SignInError.unavailable(status: 429).recommendation == .retryLater)
        #expect(!SignInError.unavailable(status: 429).mayHaveRotated)  // Lambda did not invoke the function
        let transport = backend { n in n == 1 ? throttled : nil }
        let session = try await signedInSession(transport)
        try await session.refresh()
        #expect(transport.presentedTokens() == ["rt-0", "rt-0"])
    }

    @Test func anotherActionFirstSettlesALostRefreshInsideTheWindow() async throws {
        let transport = backend { n in n == 1 ? TransportAnswer(statusCode: 502, body: Data()) : nil }
        let session = SignInSession(
            configuration: SignInConfiguration(
                transport: transport, store: InMemorySessionStore(), retryDelays: [], minimumRefreshInterval: 0))
        _ = try await session.signIn(with: .apple, idToken: "id-token")
        await #expect(throws: SignInError.unavailable(status: 502)) { try await session.refresh() }
        _ = try? await session.sessions()  // refreshes first (rt-0 again, inside the grace), then lists with rt-2
        #expect(transport.presentedTokens() == ["rt-0", "rt-0", "rt-2"])
    }
}

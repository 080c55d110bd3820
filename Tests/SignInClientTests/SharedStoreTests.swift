import Foundation
import Testing

@testable import SignInClient

/// Two processes over one store (an app and its extension), account switches, the foreground ticker.
@Suite struct SharedStoreTests {
    @Test func anExtensionAdoptsTheAppsRotationInsteadOfRefreshing() async throws {
        let transport = backend()
        let store = InMemorySessionStore()
        let app = try await signedInSession(transport, store: store)
        let appex = SignInSession(
            configuration: SignInConfiguration(
                transport: transport, store: store, refreshPolicy: .readOnly, minimumRefreshInterval: 0))
        #expect(try await appex.credentials().accessKeyId == "AK0")  // due, still valid: used as is
        try await app.refresh()
        #expect(try await appex.credentials().accessKeyId == "AK1")  // re-read the store: the app's rotation
        #expect(transport.count(.refresh) == 1)
    }

    @Test func aSignInInAnotherProcessIsSeenByAnExtension() async throws {
        let store = InMemorySessionStore()
        let appex = SignInSession(
            configuration: SignInConfiguration(transport: backend(), store: store, refreshPolicy: .readOnly))
        var states = await appex.authStates().makeAsyncIterator()
        #expect(await states.next() == .signedOut(.noSession))
        _ = try await signedInSession(backend(), store: store)
        #expect(await appex.currentUser != nil)
        guard case .signedIn = await states.next() else {
            Issue.record("no signedIn state")
            return
        }
    }

    @Test(.timeLimit(.minutes(1))) func anAnswerForTheAccountSignedOutOfIsDroppedAfterASwitch() async throws {
        let gate = Gate()
        let transport = backend(expiresIn: 3600, gate: gate)
        let session = try await signedInSession(transport)
        let refresh = Task { try await session.refresh() }
        await gate.reached()  // the refresh is at the server...
        _ = try await session.signIn(with: .google, idToken: "another")
        gate.open()  // ...and answers only after the switch
        await #expect(throws: SignInError.sessionChanged) { try await refresh.value }
        #expect(try await session.credentials().accessKeyId == "AK0")  // the new sign-in's, not the late AK1
    }

    @Test func theForegroundTickerJoinsTheOneRefresh() async throws {
        let transport = backend(hold: .milliseconds(100))
        let session = try await signedInSession(transport)
        await session.startAutomaticRefresh(every: 0.02)
        async let a = session.credentials()
        async let b = session.credentials()
        let keys = try await [a.accessKeyId, b.accessKeyId]
        await session.stopAutomaticRefresh()
        #expect(Set(keys).count == 1)
        #expect(transport.count(.refresh) == 1)
    }
}

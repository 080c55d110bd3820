import Foundation
import Testing

@testable import SignInClient

/// Sign-out under the contract's client rules, as the Android library keeps them too
/// (docs/client.md, "The two clients, rule by rule"): it never presents a token whose refresh
/// answer was lost past its window (reuse revokes the session whatever the action), a read-only
/// process presents only the token its store holds now, and the user's sign-out ends the session
/// here whatever the store says.
@Suite struct SignOutRulesTests {
    /// Refresh answers are lost while `losing` is set; `list` marks session "s1" current; the rest
    /// answer as the functions do.
    final class Server: @unchecked Sendable {
        let lock = NSLock()
        var losing = false
        lazy var transport = ScriptedTransport { [unowned self] function, event in
            switch (function, event["action"] as? String) {
            case (.signin, _):
                return Answers.ok(Answers.session(token: "rt-0", key: "AK0", expiresIn: 3600, newUser: true))
            case (.refresh, "refresh"?):
                if self.lock.withLock({ self.losing }) { throw SignInError.answerLost(detail: "connection lost") }
                return Answers.ok(Answers.session(token: "rt-1", key: "AK1", expiresIn: 3600))
            case (.refresh, "list"?):
                let iso = Answers.iso
                let now = Date().formatted(iso)
                let summary: [String: Any] = [
                    "sessionId": "s1", "provider": "apple", "signedInAt": now,
                    "expiresAt": Date().addingTimeInterval(86400).formatted(iso), "current": true,
                ]
                return Answers.ok(Answers.envelope(["sessions": [summary]]))
            default:
                return Answers.ok(Answers.envelope(["signedOut": true]))
            }
        }
        func lose(_ value: Bool) { lock.withLock { losing = value } }
    }

    func actions(_ transport: ScriptedTransport) -> [String] {
        transport.events().compactMap { $0["action"] as? String }
    }

    @Test func anExtensionPresentsNothingAtSignOutWhileTheStoreCannotBeRead() async throws {
        let server = Server()
        let store = LockedStoreTests.LockingStore()
        let app = SignInSession(configuration: SignInConfiguration(transport: server.transport, store: store))
        _ = try await app.signIn(with: .apple, idToken: "id-token")
        let appex = SignInSession(
            configuration: SignInConfiguration(transport: server.transport, store: store, refreshPolicy: .readOnly))
        #expect(await appex.currentUser != nil)
        store.lockNow()  // its copy may be rotated out by now: it is not presented
        #expect(await appex.signOut() == false)
        #expect(!actions(server.transport).contains("signout"))
        #expect(try store.inner.load() != nil)  // the app's store is the app's
    }

    @Test func signingOutThisSessionByItsIdSignsOutHere() async throws {
        let server = Server()
        let store = InMemorySessionStore()
        let session = SignInSession(configuration: SignInConfiguration(transport: server.transport, store: store))
        _ = try await session.signIn(with: .apple, idToken: "id-token")
        let current = try #require(try await session.sessions().first { $0.current })
        try await session.signOut(sessionId: current.sessionId)
        #expect(await session.currentUser == nil)
        #expect(try store.load() == nil)
    }

    @Test func theUsersSignOutEndsTheSessionHereEvenWhileTheStoreCannotBeRead() async throws {
        let server = Server()
        let store = LockedStoreTests.LockingStore()
        _ = try await SignInSession(configuration: SignInConfiguration(transport: server.transport, store: store))
            .signIn(with: .apple, idToken: "id-token")
        store.lockNow()  // the next launch, before the first unlock
        let session = SignInSession(configuration: SignInConfiguration(transport: server.transport, store: store))
        #expect(await session.currentUser == nil)  // unknown: not signed in, not signed out
        #expect(await session.signOut() == false)  // no token to present: the store could not be read
        store.unlockNow()
        #expect(await session.currentUser == nil)  // the user asked to be out: nothing came back
    }
}

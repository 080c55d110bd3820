import Foundation
import Testing

@testable import SignInClient

/// Defect 1 of issue 24: an app extension (`refreshPolicy: .readOnly`) presents only the token the
/// shared store holds now, and never clears or writes that store because of an answer to a token
/// the store no longer holds.
@Suite struct ExtensionTokenTests {
    /// A server that rotates like the functions: `list` takes only the current token.
    final class RotatingServer: @unchecked Sendable {
        private let lock = NSLock()
        private var current = "rt-0"
        private var issued = 0
        /// Called when `list` arrives, before it is answered (the app rotating meanwhile).
        var onList: (@Sendable () -> Void)?

        func rotate() -> String {
            lock.withLock {
                issued += 1
                current = "rt-\(issued)"
                return current
            }
        }
        func isCurrent(_ token: String) -> Bool { lock.withLock { current == token } }

        lazy var transport = ScriptedTransport { [unowned self] function, event in
            let token = event["refreshToken"] as? String ?? ""
            switch (function, event["action"] as? String) {
            case (.signin, _): return Answers.ok(Answers.session(token: "rt-0", key: "AK0", newUser: true))
            case (.refresh, "refresh"?):
                guard self.isCurrent(token) else { return Answers.failure("SESSION_INVALID", status: 401) }
                let next = self.rotate()
                return Answers.ok(Answers.session(token: next, key: "AK-\(next)"))
            case (.refresh, "list"?):
                self.onList?()
                guard self.isCurrent(token) else { return Answers.failure("SESSION_INVALID", status: 401) }
                return Answers.ok(Answers.envelope(["sessions": []]))
            default:
                return Answers.ok(
                    Answers.envelope([
                        "status": "linked", "user": Answers.user(),
                        "subscription": ["tier": "free", "storageLimit": 1, "storageUsed": 0],
                    ]))
            }
        }
    }

    func appAndExtension(_ server: RotatingServer) async throws -> (SignInSession, SignInSession, InMemorySessionStore)
    {
        let store = InMemorySessionStore()
        let app = try await signedInSession(server.transport, store: store)
        let appex = SignInSession(
            configuration: SignInConfiguration(transport: server.transport, store: store, refreshPolicy: .readOnly))
        _ = await appex.currentUser  // the extension has read the store (rt-0)
        return (app, appex, store)
    }

    @Test func anExtensionPresentsTheTokenTheStoreHoldsNowAfterTheAppRotated() async throws {
        let server = RotatingServer()
        let (app, appex, store) = try await appAndExtension(server)
        try await app.refresh()  // the app rotates rt-0 → rt-1 and stores it
        _ = try await appex.sessions()
        #expect(server.transport.presentedTokens() == ["rt-0", "rt-1"])  // the app's refresh, the extension's list
        #expect(try StoredSession.decode(try #require(try store.load())).refreshToken == "rt-1")
    }

    @Test func aRefusalOfATokenTheStoreNoLongerHoldsClearsNothingAndAsksAgain() async throws {
        let server = RotatingServer()
        let (app, appex, store) = try await appAndExtension(server)
        // The app rotates while the extension's list is on its way: the list is refused.
        server.onList = { [store] in
            server.onList = nil
            let next = server.rotate()
            var stored = try! StoredSession.decode(store.load()!)
            stored.refreshToken = next
            try! store.save(stored.encoded())
        }
        _ = try await appex.sessions()
        #expect(server.transport.presentedTokens() == ["rt-0", "rt-1"])
        #expect(try StoredSession.decode(try #require(try store.load())).refreshToken == "rt-1")
        _ = app
    }

    @Test func aDefinitiveAnswerEndsTheExtensionsCopyButLeavesTheStoreToTheApp() async throws {
        let server = RotatingServer()
        let (_, appex, store) = try await appAndExtension(server)
        _ = server.rotate()  // the session moved on elsewhere; the store still holds rt-0
        await #expect(throws: SignInError.server(.sessionInvalid, message: "m", status: 401)) {
            _ = try await appex.sessions()
        }
        #expect(try store.load() != nil)  // the app clears it at its own next call
        #expect(await appex.currentUser == nil)  // and the extension does not adopt rt-0 again
        await #expect(throws: SignInError.notSignedIn) { _ = try await appex.sessions() }
        #expect(server.transport.presentedTokens() == ["rt-0"])
    }

    @Test func anExtensionNeverWritesItsCopyBackOverTheApps() async throws {
        let server = RotatingServer()
        let (app, appex, store) = try await appAndExtension(server)
        _ = try await appex.claimPurchase(signedTransaction: "jws")  // presents rt-0, updates the user
        try await app.refresh()
        let stored = try #require(try store.load())
        _ = try await appex.link(.google, idToken: "id")
        #expect(try store.load() == stored)  // the extension's answers never reach the store
    }

    /// A store the extension cannot read (a format newer than it) is unknown, not signed out.
    @Test func anUnreadableStoreIsUnknownForAnExtension() async throws {
        let store = InMemorySessionStore()
        _ = try await signedInSession(backend(), store: store)
        let appex = SignInSession(
            configuration: SignInConfiguration(transport: backend(), store: store, refreshPolicy: .readOnly))
        _ = await appex.currentUser
        try store.save(Data(#"{"format": 99}"#.utf8))
        await #expect(
            throws: SignInError.storeUnavailable(detail: "stored session format 99 is newer than this client")
        ) {
            _ = try await appex.sessions()
        }
        #expect(await appex.currentUser != nil)  // its copy is kept; nothing was presented
    }
}

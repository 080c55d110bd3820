import Foundation
import Testing

@testable import SignInClient

/// The app moved to another Apple developer team (contract v4; docs/client.md, "When the app
/// moves to another Apple developer team"): the session is kept, and the user it reports follows
/// the server's re-key of the Apple link. The Android library's `AppTransferTest` is the same.
@Suite struct AppTransferTests {
    /// The Apple `sub` the server's account has: the old team's until the re-key.
    final class AppleLink: @unchecked Sendable {
        private let lock = NSLock()
        private var id = "001.a"
        var current: String {
            get { lock.withLock { id } }
            set { lock.withLock { id = newValue } }
        }
    }

    @Test func theSessionKeepsRefreshingAndItsUserFollowsTheReKeyedAppleID() async throws {
        let link = AppleLink()
        let counter = Counter()
        let transport = ScriptedTransport { function, _ in
            let n = counter.next()
            return Answers.ok(
                Answers.session(token: "rt-\(n)", key: "AK\(n)", newUser: function == .signin, appleID: link.current))
        }
        let store = InMemorySessionStore()
        let session = try await signedInSession(transport, store: store)
        let uuid = try #require(await session.currentUser?.serviceUserID)
        #expect(await session.currentUser?.appleUserID == "001.a")
        var states = await session.authStates().makeAsyncIterator()
        _ = await states.next()  // the current state, first

        link.current = "002.b"  // the operator's `complete` (or the user's other device) re-keyed the link
        let user = try await session.refresh()
        #expect(user.serviceUserID == uuid && user.appleUserID == "002.b")
        guard case .refreshed(let published)? = await states.next() else {
            Issue.record("the refreshed user was not published")
            return
        }
        #expect(published.appleUserID == "002.b")
        // A relaunch reads the new identifier from the store; nothing was signed out.
        let relaunched = SignInSession(configuration: SignInConfiguration(transport: transport, store: store))
        #expect(await relaunched.currentUser?.appleUserID == "002.b")
        #expect(transport.count(.refresh, action: "signout") == 0)
    }

    @Test func anAccountWithoutAppleHasNoAppleUserID() throws {
        let data = try JSONSerialization.data(withJSONObject: [
            "serviceUserID": "6f1c2a4e-0000-4000-8000-000000000001",
            "providers": [["type": "google", "id": "1234", "isPrimary": true]],
        ])
        #expect(try JSONDecoder().decode(User.self, from: data).appleUserID == nil)
    }
}

import Foundation
import Testing

@testable import SignInClient

@Suite struct LockedStoreTests {
    /// Reads fail (a locked Keychain) after the first: nothing is cleared, the extension keeps its copy.
    final class LockingStore: SessionStore, @unchecked Sendable {
        let inner = InMemorySessionStore()
        private let lock = NSLock()
        private var locked = false
        func lockNow() { lock.withLock { locked = true } }
        func unlockNow() { lock.withLock { locked = false } }
        func load() throws -> Data? {
            if lock.withLock({ locked }) { throw SessionStoreError("keychain locked") }
            return try inner.load()
        }
        func save(_ data: Data) throws { try inner.save(data) }
        func remove() throws { try inner.remove() }
    }

    @Test func aLockedStoreIsUnknownNeverSignedOut() async throws {
        let store = LockingStore()
        _ = try await signedInSession(backend(expiresIn: 100), store: store)
        let appex = SignInSession(
            configuration: SignInConfiguration(
                transport: backend(), store: store, refreshPolicy: .readOnly, minimumRefreshInterval: 0))
        #expect(try await appex.credentials().accessKeyId == "AK0")
        store.lockNow()
        #expect(try await appex.credentials().accessKeyId == "AK0")  // due, unreadable store: keep the copy
        #expect(await appex.currentUser != nil)
        #expect(try store.inner.load() != nil)
    }
}

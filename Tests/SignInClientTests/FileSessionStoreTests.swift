import Foundation
import Testing

@testable import SignInClient

@Suite struct FileSessionStoreTests {
    @Test func savesOwnerOnlyAndRoundTrips() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(url: directory.appendingPathComponent("session.json"))
        #expect(try store.load() == nil)
        try store.save(Data("one".utf8))
        try store.save(Data("two".utf8))
        #expect(try store.load() == Data("two".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: store.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["session.json"])
        try store.remove()
        try store.remove()
        #expect(try store.load() == nil)
    }
}

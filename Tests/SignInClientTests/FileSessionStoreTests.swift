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

/// Defect 8 of issue 24: the file is protected until first unlock and left out of backups, set on
/// the new file before it replaces the old one (rename keeps both; a device proves their effect).
@Suite struct FileSessionStoreProtectionTests {
    final class Prepared: @unchecked Sendable {
        let lock = NSLock()
        var files: [(path: String, finalHeld: Data?)] = []
    }

    @Test func eachNewFileIsProtectedAndExcludedBeforeItReplacesTheOld() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let prepared = Prepared()
        var store = FileSessionStore(url: directory.appendingPathComponent("session.json"))
        store.prepare = { [url = store.url] file in
            prepared.lock.withLock { prepared.files.append((file.path, try? Data(contentsOf: url))) }
        }
        try store.save(Data("one".utf8))
        try store.save(Data("two".utf8))
        let files = prepared.lock.withLock { prepared.files }
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0.path != store.url.path && $0.path.hasPrefix(directory.path) })
        #expect(files.map(\.finalHeld) == [nil, Data("one".utf8)])  // before the rename
        let protection = FileSessionStore.protection[.protectionKey] as? FileProtectionType
        #expect(protection?.rawValue == FileProtectionType.completeUntilFirstUserAuthentication.rawValue)
        #expect(FileSessionStore.backupExclusion.isExcludedFromBackup == true)
        try FileSessionStore.protectAndExclude(store.url)  // the real one runs here (Linux ignores both)
    }
}

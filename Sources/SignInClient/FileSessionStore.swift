import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file readable by its owner only (mode 0600), for Linux and command-line tools, or an app
/// that prefers a file. Writes go to a temporary file created 0600 in the same directory, then
/// `rename(2)`: a crash leaves the old session or the new one, never half of one.
///
/// On Apple platforms the file is protected until the first unlock
/// (`completeUntilFirstUserAuthentication`: an app whose default protection is Complete can still
/// store a rotated token from a background refresh while the phone is locked) and excluded from
/// backups (a backup restored onto another device would replay a rotated-out token and revoke the
/// session). Keep the file in a directory of its own: the store sets that directory's protection
/// class so the files it creates there get it too. Linux ignores both (docs/client.md).
public struct FileSessionStore: SessionStore {
    public var url: URL
    /// Applied to each new file before it replaces the old one (tests observe it).
    var prepare: @Sendable (URL) throws -> Void = FileSessionStore.protectAndExclude

    public init(url: URL) { self.url = url }

    static var protection: [FileAttributeKey: Any] {
        [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication]
    }

    static var backupExclusion: URLResourceValues {
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        return values
    }

    @Sendable static func protectAndExclude(_ file: URL) throws {
        try FileManager.default.setAttributes(protection, ofItemAtPath: file.path)
        var file = file
        try file.setResourceValues(backupExclusion)
    }

    public func load() throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try Data(contentsOf: url) } catch { throw SessionStoreError("cannot read the session file") }
    }

    public func save(_ data: Data) throws {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // New files inherit the directory's class: the temporary file can be created while locked.
        try? FileManager.default.setAttributes(Self.protection, ofItemAtPath: directory.path)
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw SessionStoreError("cannot create the session file (errno \(errno))") }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < buffer.count {
                let n = write(fd, base + done, buffer.count - done)
                if n <= 0 { break }
                done += n
            }
            return done
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, (try? prepare(temporary)) != nil, rename(temporary.path, url.path) == 0
        else {
            unlink(temporary.path)
            throw SessionStoreError("cannot write the session file")
        }
    }

    public func remove() throws {
        if unlink(url.path) != 0 && errno != ENOENT { throw SessionStoreError("cannot remove the session file") }
    }
}

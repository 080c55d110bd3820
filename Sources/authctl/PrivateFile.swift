import PlatformSupport

#if canImport(Glibc)
import Glibc
#endif

/// A file authctl writes for the operator (an export holds personal data; contract v4): created
/// mode 0600 whatever was at the path before, and never through a symbolic link. Every directory
/// of the path is opened in turn without following a link (a relative path starts at the working
/// directory), the bytes go to a new file beside the target (`O_EXCL | O_NOFOLLOW`, then 0600 set
/// on it whatever the umask), synced, and renamed over the target: an existing file is replaced,
/// never rewritten in place (its mode, its other hard links and anything racing the path cannot
/// reach the new bytes). A symbolic link anywhere in the path, or as the file itself, is refused.
struct PrivateFile {
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    private let directory: Int32
    private let name: String
    private let temporary: String
    let path: String

    /// Writes `bytes` beside `path`, not yet in its place (`commit` puts it there).
    init(_ path: String, _ bytes: [UInt8]) throws(Refusal) {
        self.path = path
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.popLast(), !last.isEmpty, last != ".", last != ".." else {
            throw Refusal(description: "\(path) does not name a file")
        }
        var fd = open(path.hasPrefix("/") ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Refusal(description: "cannot open the directory of \(path)") }
        for part in parts where !part.isEmpty && part != "." {
            let next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let linked = next < 0 && PrivateFile.isLink(fd, part)
            close(fd)
            guard next >= 0 else {
                throw Refusal(
                    description: linked
                        ? "\(path): \(part) is a symbolic link (give the path without links)"
                        : "\(path): \(part) is not a directory that can be opened")
            }
            fd = next
        }
        directory = fd
        name = last
        var st = stat()
        if fstatat(fd, last, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            let kind = st.st_mode & S_IFMT
            guard kind != S_IFLNK else {
                close(fd)
                throw Refusal(description: "\(path) is a symbolic link: authctl never writes through one")
            }
            guard kind == S_IFREG else {
                close(fd)
                throw Refusal(description: "\(path) exists and is not a regular file")
            }
        }
        temporary = ".\(last).authctl-\(Hex.encode(SecureRandom.bytes(8)))"
        let out = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard out >= 0 else {
            close(fd)
            throw Refusal(description: "cannot create a file beside \(path)")
        }
        var offset = 0
        var written = fchmod(out, 0o600) == 0
        while written && offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(out, $0.baseAddress! + offset, $0.count - offset) }
            written = n > 0
            offset += max(n, 0)
        }
        written = written && fsync(out) == 0
        close(out)
        guard written else {
            unlinkat(fd, temporary, 0)
            close(fd)
            throw Refusal(description: "cannot write \(path)")
        }
    }

    /// Puts the file in place (the rename replaces whatever entry is at the path, a link
    /// included, and never follows it).
    func commit() throws(Refusal) {
        defer { close(directory) }
        guard renameat(directory, temporary, directory, name) == 0 else {
            unlinkat(directory, temporary, 0)
            throw Refusal(description: "cannot move the export into place at \(path)")
        }
        _ = fsync(directory)
    }

    /// Removes the file written beside the target (the action did not go ahead).
    func discard() {
        unlinkat(directory, temporary, 0)
        close(directory)
    }

    private static func isLink(_ directory: Int32, _ name: String) -> Bool {
        var st = stat()
        return fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFLNK
    }
}

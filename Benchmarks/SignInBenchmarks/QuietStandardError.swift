#if canImport(Glibc)
import Glibc
#endif

/// The handlers write a metrics record to stderr for every invocation, as they do on Lambda; while
/// the function benchmarks measure, those lines go to /dev/null instead of the terminal.
enum QuietStandardError {
    nonisolated(unsafe) private static var saved: Int32 = -1

    static func begin() {
        guard saved < 0 else { return }
        saved = dup(2)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, 2)
        close(null)
    }

    static func end() {
        guard saved >= 0 else { return }
        dup2(saved, 2)
        close(saved)
        saved = -1
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a `Logger`'s finished lines go: stderr in every function (Lambda collects it), a
/// closure in the tests, so they can read the lines the loop writes.
struct LogSink: Sendable {
    let emit: @Sendable ([UInt8]) -> Void

    /// One write(2) per line: unbuffered (nothing lost at a crash), and lines from one process
    /// never interleave.
    static let standardError = LogSink { line in
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}

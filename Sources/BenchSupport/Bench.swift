import PlatformSupport

#if canImport(Glibc)
import Glibc
#endif

/// What the benchmark drivers (aws-bench, token-bench, appstore-bench) share; nothing here is
/// linked into a function.
package enum Bench {
    /// Writes "<tool>: <message>" to standard error and exits with status 1.
    package static func fail(_ tool: String, _ message: String) -> Never {
        let line = Array("\(tool): \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(1)
    }

    /// Runs `body` in batches of `batch` until `seconds` pass or `maxIterations` are done (bounded
    /// both ways); returns the calls per second.
    package static func rate(
        seconds: Double, batch: Int, maxIterations: Int = 2_000_000, _ body: () -> Void
    ) -> Double {
        let budget = UInt64(seconds * 1e9)
        let start = Clock.monotonicNanoseconds()
        var done = 0
        while done < maxIterations {
            for _ in 0..<batch { body() }
            done += batch
            if Clock.monotonicNanoseconds() - start >= budget { break }
        }
        return Double(done) / (Double(Clock.monotonicNanoseconds() - start) / 1e9)
    }
}

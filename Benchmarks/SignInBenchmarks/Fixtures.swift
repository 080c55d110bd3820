import StrictJSON

#if canImport(Glibc)
import Glibc
#endif

/// The tokens, keys and signed data the benchmarks verify, made once per run by the project's
/// independent test issuers (`signin_tools/bench/fixtures.py`, Python `cryptography`): no key is
/// committed and the token is fresh. Needs the repository's `.venv` (`scripts/setup`).
struct Fixtures: Sendable {
    let appleJWKS: [UInt8]
    let appleAudience: String
    let appleSubject: String
    let appleToken: String
    let appStoreRootPEM: String
    let appStoreBundleID: String
    let appStoreTransaction: String

    static let shared = Fixtures.make()

    /// The repository's root: this file is Benchmarks/SignInBenchmarks/Fixtures.swift.
    static let repositoryRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    private static func make() -> Fixtures {
        let command = "cd '\(repositoryRoot)' && .venv/bin/python -m signin_tools.bench.fixtures"
        guard let pipe = popen(command, "r") else { fail("cannot run \(command)") }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, pipe)
            if n == 0 { break }
            output.append(contentsOf: chunk[..<n])
        }
        guard pclose(pipe) == 0, let doc = try? JSONParser.parse(output),
            let apple = doc["apple"], let store = doc["appstore"],
            let jwks = apple["jwks"], let audience = apple["audience"]?.stringValue,
            let subject = apple["subject"]?.stringValue, let token = apple["token"]?.stringValue,
            let root = store["root_pem"]?.stringValue, let bundle = store["bundle_id"]?.stringValue,
            let transaction = store["transaction"]?.stringValue
        else { fail("\(command) failed (run scripts/setup first)") }
        return Fixtures(
            appleJWKS: jwks.serialized(), appleAudience: audience, appleSubject: subject, appleToken: token,
            appStoreRootPEM: root, appStoreBundleID: bundle, appStoreTransaction: transaction)
    }
}

/// Stops the run with a message: a benchmark whose setup failed measures nothing.
func fail(_ message: String) -> Never {
    QuietStandardError.end()
    let line = Array("SignInBenchmarks: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// A benchmark's setup: a failure stops the run (exit 1) instead of leaving the benchmark out of
/// the results, where the threshold check would not notice it missing.
func prepare<T>(_ body: () throws -> T) -> T {
    do { return try body() } catch { fail("a benchmark's setup failed: \(error)") }
}

import Foundation
import StrictJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The loopback test identity provider (`python -m signin_tools.serve_standins --idp`), run with the
/// project's venv: an independent implementation (Python `cryptography`) mints every token and
/// serves the JWKS. Started per test, stopped by `stop()` (closing its stdin; killed if it does
/// not exit) and at the latest when this process exits (its stdin closes). If it cannot be
/// started, the test fails: a test that needs it never passes without it.
final class StandIn {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let repositoryRoot: URL = {
        // Tests/TokenVerificationTests/StandIn.swift → the repository.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private var stopped = false
    /// APPLE_AUDIENCES, GOOGLE_AUDIENCES, APPLE_JWKS_URL, GOOGLE_JWKS_URL, FIREBASE_PROJECT_ID,
    /// FIREBASE_JWKS_URL, FIREBASE_ALLOW_ANONYMOUS.
    private(set) var environment: [String: String] = [:]

    init() throws {
        let root = Self.repositoryRoot
        let python = root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup")
        }
        process.executableURL = python
        process.arguments = ["-m", "signin_tools.serve_standins", "--idp", "--max-seconds", "600"]
        process.currentDirectoryURL = root  // where the signin_tools package is
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            let hello = try readLine(timeoutSeconds: 60)
            guard let idp = hello["idp"]?.objectValue else {
                throw Failure(description: "stand-in printed no idp section")
            }
            for (k, v) in idp { environment[k] = v.stringValue }
            guard environment["APPLE_JWKS_URL"]?.hasPrefix("http://127.0.0.1:") == true else {
                throw Failure(description: "stand-in JWKS is not on loopback")
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    func stop() {
        guard !stopped else { return }
        stopped = true
        try? input.fileHandleForWriting.close()
        // Bounded wait for a clean exit, then SIGTERM, then SIGKILL.
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { process.terminate() }
        for _ in 0..<20 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
    }

    /// Sends one command and returns its one-line answer.
    @discardableResult
    func command(_ cmd: JSONValue) throws -> JSONValue {
        var line = cmd.serialized()
        line.append(0x0a)
        try input.fileHandleForWriting.write(contentsOf: Data(line))
        let answer = try readLine(timeoutSeconds: 30)
        if let error = answer["error"]?.stringValue { throw Failure(description: "stand-in refused command: \(error)") }
        return answer
    }

    private func readLine(timeoutSeconds: Int) throws -> JSONValue {
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        while true {
            if let nl = buffer.firstIndex(of: 0x0a) {
                let line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                return try JSONParser.parse(line)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "stand-in did not answer within \(timeoutSeconds) s") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(left, 1) * 1000))
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw Failure(description: "stand-in exited before answering") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    // MARK: - Conveniences

    var appleAudience: String { environment["APPLE_AUDIENCES"] ?? "" }
    var googleAudience: String { environment["GOOGLE_AUDIENCES"] ?? "" }
    var firebaseProjectID: String { environment["FIREBASE_PROJECT_ID"] ?? "" }

    /// A token from the stand-in. `template` holds keyword arguments of
    /// `IdentityProvider.apple_claims`/`google_claims`/`firebase_claims` (the real claim shapes); `claims` are
    /// merged over them, `drop` removed; the other options forge (see `IdentityProvider.forge`).
    func mint(
        _ provider: String, template: JSONValue? = nil, claims: JSONValue? = nil, drop: [String] = [],
        header: JSONValue? = nil, sign: String? = nil, kid: String? = nil, rawClaims: String? = nil,
        rawHeader: String? = nil
    ) throws -> String {
        var cmd = JSONObject([("mint", .string(provider))])
        cmd["template"] = template ?? ["sub": "001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234"]
        if let claims { cmd["claims"] = claims }
        if !drop.isEmpty { cmd["drop"] = .array(drop.map { .string($0) }) }
        if let header { cmd["header"] = header }
        if let sign { cmd["sign"] = .string(sign) }
        if let kid { cmd["kid"] = .string(kid) }
        if let rawClaims { cmd["raw_claims"] = .string(rawClaims) }
        if let rawHeader { cmd["raw_header"] = .string(rawHeader) }
        guard let token = try command(.object(cmd))["token"]?.stringValue else {
            throw Failure(description: "no token in answer")
        }
        return token
    }

    func fetches() throws -> (apple: Int, google: Int, firebase: Int) {
        let answer = try command(["jwks_fetches": true])
        guard let a = answer["apple"]?.int64Value, let g = answer["google"]?.int64Value,
            let f = answer["firebase"]?.int64Value
        else {
            throw Failure(description: "bad counts")
        }
        return (Int(a), Int(g), Int(f))
    }

    func setFailing(_ failing: Bool) throws { try command(["idp_fail": .bool(failing)]) }

    func setMaxAge(_ seconds: Int?) throws { try command(["max_age": seconds.map { .int($0) } ?? .null]) }

    func rotate(_ provider: String) throws -> String {
        guard let kid = try command(["rotate": .string(provider)])["kid"]?.stringValue else {
            throw Failure(description: "no kid")
        }
        return kid
    }

    func addKey(_ provider: String, bits: Int, kid: String) throws {
        try command(["add_key": .string(provider), "bits": .int(bits), "kid": .string(kid)])
    }
}

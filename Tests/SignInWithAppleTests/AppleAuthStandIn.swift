import Foundation
import StrictJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Apple's token endpoints on loopback (`python -m signin_tools.serve_standins --apple-auth`, the
/// project's venv): its own Sign in with Apple key, `client_secret` checked as Apple checks it
/// (Python `cryptography`, independent of CryptoPrimitives), id_tokens from the test IdP. One
/// per test, stopped by `stop()` (stdin closed, then SIGTERM, then SIGKILL, by pid) and at the
/// latest when this process exits. A missing venv fails the test; nothing is skipped.
final class AppleAuthStandIn {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let repositoryRoot: URL = {
        // Tests/SignInWithAppleTests/AppleAuthStandIn.swift → the repository.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private var stopped = false
    /// APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY, APPLE_AUTH_URL, APPLE_CLIENT_ID.
    private(set) var environment: [String: String] = [:]

    init() throws {
        let root = Self.repositoryRoot
        let python = root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup")
        }
        process.executableURL = python
        process.arguments = ["-m", "signin_tools.serve_standins", "--apple-auth", "--max-seconds", "600"]
        process.currentDirectoryURL = root
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            let hello = try readLine(timeoutSeconds: 60)
            guard let apple = hello["apple_auth"]?.objectValue else {
                throw Failure(description: "stand-in printed no apple_auth section")
            }
            for (k, v) in apple { environment[k] = v.stringValue }
            guard environment["APPLE_AUTH_URL"]?.hasPrefix("http://127.0.0.1:") == true else {
                throw Failure(description: "stand-in is not on loopback")
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

    /// A fresh single-use authorization code for `sub`.
    func code(for sub: String) throws -> String {
        guard let code = try command(["apple_code": .string(sub)])["code"]?.stringValue else {
            throw Failure(description: "no code in answer")
        }
        return code
    }

    /// Every revocation so far, as (token, hint).
    func revoked() throws -> [(token: String, hint: String)] {
        guard let list = try command(["apple_revoked": true])["revoked"]?.arrayValue else {
            throw Failure(description: "no revoked list")
        }
        return list.compactMap { entry in
            guard let pair = entry.arrayValue, pair.count == 2, let token = pair[0].stringValue else { return nil }
            return (token, pair[1].stringValue ?? "")
        }
    }

    func requests() throws -> (token: Int, revoke: Int) {
        let answer = try command(["apple_requests": true])
        guard let t = answer["token"]?.int64Value, let r = answer["revoke"]?.int64Value else {
            throw Failure(description: "bad counts")
        }
        return (Int(t), Int(r))
    }

    func failNext(_ n: Int, status: Int = 503) throws {
        try command(["apple_fail_next": .int(n), "status": .int(status)])
    }

    func setDown(_ down: Bool, hang: Bool = false) throws {
        try command(["apple_down": .bool(down), "hang": .bool(hang)])
    }

    func overrideSub(_ sub: String?) throws { try command(["apple_sub_override": sub.map { .string($0) } ?? .null]) }

    /// A P-256 PKCS#8 PEM that is not the key Apple (the stand-in) knows.
    func foreignKeyPEM() throws -> String {
        guard let pem = try command(["apple_foreign_key": true])["pem"]?.stringValue else {
            throw Failure(description: "no pem")
        }
        return pem
    }
}

import CurlHTTP
import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import AWSClients

#if canImport(Glibc)
import Glibc
#endif

struct StandInError: Error, CustomStringConvertible {
    let description: String
}

/// The repository root, found from this file's path (Tests/AWSClientsTests/Support.swift).
let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A helper process this test run started: it prints one JSON line, answers one JSON line per
/// line sent to it, and stops when its stdin closes. Every read is bounded in time.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    /// The first line the child printed.
    private(set) var hello: JSONValue = .null

    init(arguments: [String], startupSeconds: Double) throws {
        process.executableURL = repoRoot.appendingPathComponent(".venv/bin/python")
        process.arguments = arguments
        process.currentDirectoryURL = repoRoot
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw StandInError(
                description:
                    "cannot start \(arguments.first ?? "?") with .venv/bin/python (run scripts/setup): \(error)")
        }
        guard let line = readLine(timeoutSeconds: startupSeconds) else {
            stop()
            throw StandInError(description: "\(arguments.first ?? "?") printed nothing within \(startupSeconds) s")
        }
        hello = try JSONParser.parse(line)
    }

    /// Sends one line and returns the one-line JSON answer.
    func ask(_ line: String, timeoutSeconds: Double = 10) throws -> JSONValue {
        lock.lock()
        defer { lock.unlock() }
        try stdinPipe.fileHandleForWriting.write(contentsOf: Array((line + "\n").utf8))
        guard let answer = readLine(timeoutSeconds: timeoutSeconds) else {
            throw StandInError(description: "no answer to \(line)")
        }
        return try JSONParser.parse(answer)
    }

    private func readLine(timeoutSeconds: Double) -> String? {
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        let end = Date().addingTimeInterval(timeoutSeconds)
        while Date() < end {
            if let nl = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeFirst(nl + 1)
                return line
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, min(500, end.timeIntervalSinceNow * 1000)))
            guard poll(&pfd, 1, ms) >= 0 else { return nil }
            if pfd.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &chunk, chunk.count)
                if n <= 0 { return nil }
                buffer.append(contentsOf: chunk[..<n])
            }
        }
        return nil
    }

    /// Closes its stdin (it shuts down on its own), then waits a bounded time; kills it if needed.
    func stop() {
        try? stdinPipe.fileHandleForWriting.close()
        let end = Date().addingTimeInterval(10)
        while process.isRunning && Date() < end { usleep(20_000) }
        if process.isRunning { process.terminate() }
    }

    deinit { stop() }
}

/// moto_server with signature checking on, started once per test run by
/// `python -m signin_tools.serve_standins --moto` (from the repository root; the module name is
/// joined to `-m` so that messages naming the first argument name the module); it stops when this
/// process exits (stdin closes).
enum Moto {
    static let shared: Result<ChildProcess, any Error> = Result {
        try ChildProcess(
            arguments: ["-msignin_tools.serve_standins", "--moto", "--max-seconds", "900"], startupSeconds: 60)
    }

    struct Env {
        let region: String
        let accessKeyID: String
        let secretAccessKey: String
        let endpoint: String
        let bucket: String
        let roleARN: String
    }

    /// The stand-in's environment; fails the test (never skips) when moto cannot be had.
    /// A batch over moto's bucket with the tests' admin identity (what the purge suites send).
    static func batch() throws -> AWSBatch {
        let http = try HTTPClient()
        let config = try config()
        return AWSBatch(
            s3: S3Client(http: http, config: config, bucket: try env().bucket),
            sts: STSClient(http: http, config: config))
    }

    static func env() throws -> Env {
        let child = try shared.get()
        guard let m = child.hello["moto"], let region = m["AWS_REGION"]?.stringValue,
            let id = m["AWS_ACCESS_KEY_ID"]?.stringValue,
            let secret = m["AWS_SECRET_ACCESS_KEY"]?.stringValue, let endpoint = m["AWS_ENDPOINT_URL"]?.stringValue,
            let bucket = m["IDENTITY_BUCKET"]?.stringValue, let role = m["USER_ROLE_ARN"]?.stringValue
        else { throw StandInError(description: "serve_standins.py printed an unexpected line") }
        return Env(
            region: region, accessKeyID: id, secretAccessKey: secret, endpoint: endpoint, bucket: bucket, roleARN: role)
    }

    static func config(secretOverride: String? = nil, credentials: AWSCredentials? = nil) throws -> AWSConfig {
        let e = try env()
        let creds =
            credentials
            ?? AWSCredentials(accessKeyID: e.accessKeyID, secretAccessKey: secretOverride ?? e.secretAccessKey)
        return AWSConfig(
            region: e.region, credentials: creds,
            s3Endpoint: try AWSEndpoint(url: e.endpoint, variable: "AWS_ENDPOINT_URL", pathStyle: true),
            stsEndpoint: try AWSEndpoint(url: e.endpoint, variable: "AWS_ENDPOINT_URL", pathStyle: false))
    }
}

/// A scripted stub (Stubs/aws_stub.py) owned by one test.
final class Stub {
    let child: ChildProcess
    let port: Int

    init(_ script: [String: [String]]) throws {
        let json = JSONValue.object(JSONObject(script.map { ($0.key, JSONValue.array($0.value.map { .string($0) })) }))
            .serializedString()
        child = try ChildProcess(arguments: ["Tests/AWSClientsTests/Stubs/aws_stub.py", json], startupSeconds: 20)
        guard let p = child.hello["port"]?.int64Value else { throw StandInError(description: "stub printed no port") }
        port = Int(p)
    }

    /// Requests the stub has seen.
    func count() throws -> Int {
        guard let n = try child.ask("stats")["count"]?.int64Value else { throw StandInError(description: "stub stats") }
        return Int(n)
    }

    func config() throws -> AWSConfig {
        AWSConfig(
            region: "us-east-1",
            credentials: AWSCredentials(
                accessKeyID: "AKIDSTUB", secretAccessKey: "stub-secret", sessionToken: "stub-token"),
            s3Endpoint: try AWSEndpoint(url: "http://127.0.0.1:\(port)", variable: "AWS_ENDPOINT_URL", pathStyle: true),
            stsEndpoint: try AWSEndpoint(
                url: "http://127.0.0.1:\(port)", variable: "AWS_ENDPOINT_URL", pathStyle: false))
    }

    func stop() { child.stop() }
}

/// A unique prefix per test, so tests sharing the one moto bucket never see each other's keys.
func uniquePrefix(_ name: String) -> String { "test/\(name)-\(UUID().uuidString.lowercased())/" }

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Milliseconds elapsed while running `body` (monotonic).
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let value = try body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return (value, Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1e6)
}

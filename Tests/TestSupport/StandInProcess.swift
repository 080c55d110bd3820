import Foundation
import StrictJSON

#if canImport(Glibc)
import Glibc
#endif

/// One `python -m signin_tools.serve_standins` process (the project's venv) on loopback: the
/// stand-ins the Swift tests talk to (the test identity provider, Apple's token endpoints). It
/// prints one JSON line with each stand-in's environment, then answers one JSON command per line.
/// Started per test, stopped by `stop()` (stdin closed, then SIGTERM, then SIGKILL, by pid, each
/// wait bounded) and at the latest when this process exits (its stdin closes). A missing venv
/// fails the test; nothing is skipped.
package final class StandInProcess {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private var stopped = false
    /// The hello line's sections (e.g. `idp`, `apple_auth`), each a map of environment variables.
    package private(set) var sections: [String: [String: String]] = [:]

    /// - Parameter modes: serve_standins' flags, e.g. `["--idp"]`.
    package init(_ modes: [String]) throws {
        let root = Repository.root
        let python = root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup")
        }
        process.executableURL = python
        process.arguments = ["-m", "signin_tools.serve_standins"] + modes + ["--max-seconds", "600"]
        process.currentDirectoryURL = root  // where the signin_tools package is
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            guard let hello = try readLine(timeoutSeconds: 60).objectValue else {
                throw Failure(description: "stand-in printed no hello")
            }
            for (name, section) in hello {
                guard let values = section.objectValue else { continue }
                var env: [String: String] = [:]
                for (k, v) in values { env[k] = v.stringValue }
                sections[name] = env
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The environment of one section; every URL in it must be on loopback.
    package func section(_ name: String) throws -> [String: String] {
        guard let env = sections[name] else { throw Failure(description: "stand-in printed no \(name) section") }
        for (key, value) in env where key.hasSuffix("_URL") {
            guard value.hasPrefix("http://127.0.0.1:") else {
                throw Failure(description: "stand-in's \(key) is not on loopback")
            }
        }
        return env
    }

    package func stop() {
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
    package func command(_ cmd: JSONValue) throws -> JSONValue {
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
}

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the project's venv Python (`cryptography`: implementations of RSA, ECDSA and X.509
/// independent of ours; the test PKI generator) in the repository root and returns its standard
/// output. Bounded: the process is killed after `timeoutSeconds`. A missing venv fails the test;
/// nothing is skipped.
package enum PythonCryptography {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// `python -c script arguments…`.
    package static func run(_ script: String, arguments: [String] = [], timeoutSeconds: Int = 60) throws -> String {
        try python(["-c", script] + arguments, timeoutSeconds: timeoutSeconds)
    }

    /// `python arguments…` (e.g. `["-m", "signin_tools.standins.appstore_pki"]`).
    package static func python(_ arguments: [String], timeoutSeconds: Int = 120) throws -> String {
        let root = Repository.root
        let python = root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup")
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = python
        process.arguments = arguments
        process.currentDirectoryURL = root  // where the signin_tools package is
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Outputs may exceed a pipe's buffer: read until end of file, within the deadline.
        let fd = output.fileHandleForReading.fileDescriptor
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        while deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 1000) > 0 else { continue }
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            data.append(contentsOf: chunk[..<n])
        }
        if deadline.timeIntervalSinceNow <= 0 {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "python did not finish within \(timeoutSeconds) s")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python exited with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a short script under the project's venv Python (`cryptography`: an implementation of
/// ECDSA independent of ours) and returns its standard output. Bounded: the process is killed
/// after `timeoutSeconds`. A missing venv fails the test; nothing is skipped.
enum PythonCryptography {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let repositoryRoot: URL = {
        // Tests/CryptoPrimitivesTests/PythonCryptography.swift → the repository.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    static func run(_ script: String, arguments: [String] = [], timeoutSeconds: Int = 60) throws -> String {
        let python = repositoryRoot.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "\(python.path) is missing: run scripts/setup")
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = python
        process.arguments = ["-c", script] + arguments
        process.currentDirectoryURL = repositoryRoot  // where the signin_tools package is
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Outputs are a few kilobytes, well under a pipe's buffer: reading after exit cannot block it.
        for _ in 0..<(timeoutSeconds * 10) where process.isRunning { usleep(100_000) }
        if process.isRunning {
            process.terminate()
            for _ in 0..<20 where process.isRunning { usleep(100_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw Failure(description: "python did not finish within \(timeoutSeconds) s")
        }
        process.waitUntilExit()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python exited with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

/// Where the tests find the repository (the venv, the Python tooling, fixtures).
package enum Repository {
    package static let root: URL = {
        // Tests/TestSupport/Repository.swift → the repository.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()
}

import Foundation

/// Where the tests find the repository (the venv, the Python tooling, fixtures).
public enum Repository {
    public static let root: URL = {
        // Tests/TestSupport/Repository.swift → the repository.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()
}

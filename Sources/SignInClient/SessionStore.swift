import Foundation

/// Where the session (refresh token, credentials, user) lives between launches. Implementations
/// throw on a real failure (a locked Keychain, a full disk) and return nil only when there is
/// certainly nothing stored: the session treats a throwing read as "unknown", never "signed out".
public protocol SessionStore: Sendable {
    func load() throws -> Data?
    func save(_ data: Data) throws
    func remove() throws
}

/// A store's own failure, with no stored content in its message.
public struct SessionStoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// In memory: for tests and previews. Nothing survives the process.
public final class InMemorySessionStore: SessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    public init(_ data: Data? = nil) { self.data = data }

    public func load() throws -> Data? { lock.withLock { data } }
    public func save(_ data: Data) throws { lock.withLock { self.data = data } }
    public func remove() throws { lock.withLock { data = nil } }
}

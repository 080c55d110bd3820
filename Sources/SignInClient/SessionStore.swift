import Foundation

/// Where the session (refresh token, credentials, user) lives between launches. Implementations
/// throw on a real failure (a locked Keychain, a full disk) and return nil only when there is
/// certainly nothing stored: the session treats a throwing read as "unknown", never "signed out".
public protocol SessionStore: Sendable {
    func load() throws -> Data?
    func save(_ data: Data) throws
    func remove() throws
}

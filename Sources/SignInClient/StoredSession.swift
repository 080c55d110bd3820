import Foundation

/// What the store holds, versioned (`format`): a later client reads older formats and migrates
/// them; a format newer than this client is "unknown", never a reason to delete it (an older
/// build after a downgrade, an extension on an older version).
struct StoredSession: Codable, Sendable, Equatable {
    static let currentFormat = 1

    var format: Int
    var refreshToken: String
    var refreshTokenExpiresAt: Date
    var credentials: TemporaryCredentials
    var storage: StorageLocation
    var user: User
    /// The provider this session signed in with: unlinking it ends the session.
    var signInProvider: Provider
    var signedInAt: Date
    /// When these credentials arrived (a just-refreshed session is never refreshed again at once).
    var receivedAt: Date
    /// Grows by one at each rotation: an extension that re-reads the store adopts only newer states.
    var rotation: Int
    /// The server's clock minus the device's, measured at the last answer (`meta.timestamp`):
    /// expiry is judged on the server's clock, so a device clock hours off changes nothing.
    var serverClockOffset: TimeInterval? = nil
    /// Set before a refresh presenting `refreshToken` leaves (the first attempt's start, device
    /// clock), and stored first: until an answer is read, the server may have rotated the token.
    /// A relaunch, another process and an extension read it (an extension presents nothing while it
    /// is set; v4 extensions read the same field). The token is retried, whenever it is next needed
    /// (contract v5: the server keeps accepting it until its successor is presented). Cleared by the
    /// next answer read, and by a failure that consumed nothing.
    var unansweredSince: Date? = nil
    /// The `SignInSession` (one per process) whose attempt last left with this token, and when: a
    /// refreshing process that finds another's attempt younger than the attempt bound waits for it
    /// (it may be at the server right now) instead of presenting the same token beside it.
    var inFlightOwner: String? = nil
    var inFlightAt: Date? = nil

    /// Now on the server's clock.
    func serverNow(deviceNow: Date) -> Date { deviceNow.addingTimeInterval(serverClockOffset ?? 0) }

    static func decode(_ data: Data) throws(SignInError) -> StoredSession {
        struct Header: Decodable { var format: Int }
        guard let header = try? WireCoding.decoder().decode(Header.self, from: data) else {
            throw .storeUnavailable(detail: "stored session has no format")
        }
        guard header.format <= currentFormat else {
            throw .storeUnavailable(detail: "stored session format \(header.format) is newer than this client")
        }
        do {
            return try WireCoding.decoder().decode(StoredSession.self, from: data)
        } catch {
            throw .storeUnavailable(detail: "stored session format \(header.format) unreadable")
        }
    }

    func encoded() throws(SignInError) -> Data {
        do { return try WireCoding.encoder().encode(self) } catch {
            throw .storeUnavailable(detail: "could not encode the session")
        }
    }
}

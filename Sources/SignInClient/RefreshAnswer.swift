import Foundation

/// auth-refresh `refresh`: a NEW refresh token; the presented one stops working.
struct RefreshAnswer: Decodable, Sendable {
    var user: User
    var credentials: TemporaryCredentials
    var storage: StorageLocation
    var refreshToken: String
    var refreshTokenExpiresAt: Date
}

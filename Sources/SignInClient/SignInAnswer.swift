import Foundation

/// auth-signin's answer (the app sees `SignInResult`; the refresh token stays in the session).
struct SignInAnswer: Decodable, Sendable {
    var isNewUser: Bool
    var user: User
    var credentials: TemporaryCredentials
    var storage: StorageLocation
    var refreshToken: String
    var refreshTokenExpiresAt: Date
}

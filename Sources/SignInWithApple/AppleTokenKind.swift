/// Which of Apple's tokens a revocation names: `token_type_hint` at `/auth/revoke`.
package enum AppleTokenKind: String, Sendable, Equatable {
    case refreshToken = "refresh_token"
    case accessToken = "access_token"
}

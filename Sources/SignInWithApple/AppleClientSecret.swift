import CryptoPrimitives
import StrictJSON

/// `client_secret` for Apple's token endpoints ("Creating a client secret"): an ES256 JWT,
/// header `{"alg":"ES256","kid":<key id>}`, claims `iss` (team id), `iat`, `exp`, `aud` and `sub`
/// (client id), signed with the Sign in with Apple key (`P256PrivateKey.compactJWS`).
package enum AppleClientSecret {
    /// Apple's audience for every client secret, whatever `APPLE_AUTH_URL` points at: the secret
    /// is addressed to Apple's validation server, not to a URL.
    package static let audience = "https://appleid.apple.com"
    /// Short on purpose: a secret is made per request and used within seconds, so a leaked one is
    /// worth little (Apple allows up to 15,777,000 s, about six months).
    package static let lifetimeSeconds: Int64 = 300

    /// The JWT for `settings` at `now` (seconds since the epoch).
    package static func make(settings: AppleRevocationSettings, key: P256PrivateKey, now: Int64) -> String {
        key.compactJWS(
            keyID: settings.keyID,
            claims: JSONObject([
                ("iss", .string(settings.teamID)), ("iat", .int(now)), ("exp", .int(now + lifetimeSeconds)),
                ("aud", .string(audience)), ("sub", .string(settings.clientID)),
            ]))
    }
}

import CryptoPrimitives
import StrictJSON

/// The bearer token of App Store Server API requests ("Generating JSON Web Tokens for API
/// requests"): an ES256 JWT, header `alg` ES256, `kid` (the key id), `typ` JWT; claims `iss` (the
/// issuer id), `iat`, `exp` (Apple refuses more than 60 minutes after `iat`), `aud`
/// `appstoreconnect-v1` and `bid` (the bundle id); signed with the In-App Purchase key
/// (`P256PrivateKey.compactJWS`).
package enum AppStoreServerAPIToken {
    package static let audience = "appstoreconnect-v1"
    /// Short on purpose: a token is made per request and used within seconds.
    package static let lifetimeSeconds: Int64 = 300

    package static func make(settings: AppStoreServerAPISettings, key: P256PrivateKey, now: Int64) -> String {
        key.compactJWS(
            keyID: settings.keyID, type: "JWT",
            claims: JSONObject([
                ("iss", .string(settings.issuerID)), ("iat", .int(now)), ("exp", .int(now + lifetimeSeconds)),
                ("aud", .string(audience)), ("bid", .string(settings.bundleID)),
            ]))
    }
}

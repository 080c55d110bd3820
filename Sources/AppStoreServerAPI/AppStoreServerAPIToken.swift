import CryptoPrimitives
import PlatformSupport
import StrictJSON

/// The bearer token of App Store Server API requests ("Generating JSON Web Tokens for API
/// requests"): an ES256 JWT, header `alg` ES256, `kid` (the key id), `typ` JWT; claims `iss` (the
/// issuer id), `iat`, `exp` (Apple refuses more than 60 minutes after `iat`), `aud`
/// `appstoreconnect-v1` and `bid` (the bundle id); signed with the In-App Purchase key as JWS
/// `r ‖ s`, base64url without padding.
package enum AppStoreServerAPIToken {
    package static let audience = "appstoreconnect-v1"
    /// Short on purpose: a token is made per request and used within seconds.
    package static let lifetimeSeconds: Int64 = 300

    package static func make(settings: AppStoreServerAPISettings, key: P256PrivateKey, now: Int64) -> String {
        let header: JSONValue = .object(
            JSONObject([("alg", "ES256"), ("kid", .string(settings.keyID)), ("typ", "JWT")]))
        let claims: JSONValue = .object(
            JSONObject([
                ("iss", .string(settings.issuerID)), ("iat", .int(now)), ("exp", .int(now + lifetimeSeconds)),
                ("aud", .string(audience)), ("bid", .string(settings.bundleID)),
            ]))
        let signingInput = Base64.urlEncode(header.serialized()) + "." + Base64.urlEncode(claims.serialized())
        return signingInput + "." + Base64.urlEncode(key.sign(message: Array(signingInput.utf8)))
    }
}

import PlatformSupport
import StrictJSON

extension P256PrivateKey {
    /// An ES256 JWT in JWS compact form (RFC 7515 §7.1), as Apple's APIs take them (Sign in with
    /// Apple's `client_secret`, the App Store Server API's bearer token): header
    /// `{"alg":"ES256","kid":keyID}`, with `"typ":type` after them when given, then `claims`, each
    /// base64url without padding, signed with this key as JWS `r ‖ s`. The claim set is the
    /// caller's; only the signing is shared.
    package func compactJWS(keyID: String, type: String? = nil, claims: JSONObject) -> String {
        var header = JSONObject([("alg", "ES256"), ("kid", .string(keyID))])
        if let type { header["typ"] = .string(type) }
        let signingInput =
            Base64.urlEncode(JSONValue.object(header).serialized()) + "."
            + Base64.urlEncode(JSONValue.object(claims).serialized())
        return signingInput + "." + Base64.urlEncode(sign(message: Array(signingInput.utf8)))
    }
}

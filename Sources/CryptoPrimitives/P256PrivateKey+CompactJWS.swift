import StrictJSON

extension P256PrivateKey {
    /// An ES256 JWT in JWS compact form (RFC 7515 §7.1), as Apple's APIs take them (Sign in with
    /// Apple's `client_secret`, the App Store Server API's bearer token): header
    /// `{"alg":"ES256","kid":keyID}`, with `"typ":type` after them when given, then `claims`, each
    /// base64url without padding, signed with this key as JWS `r ‖ s`. The claim set is the
    /// caller's; only the signing is shared.
    package func compactJWS(keyID: String, type: String? = nil, claims: JSONObject) -> String {
        CompactJWSEncoding.encode(algorithm: "ES256", keyID: keyID, type: type, claims: claims, sign: sign(message:))
    }
}

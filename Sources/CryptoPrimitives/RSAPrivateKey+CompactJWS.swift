import StrictJSON

extension RSAPrivateKey {
    /// An RS256 JWT in JWS compact form, as Google's APIs take a service account's own bearer
    /// token: header `{"alg":"RS256","kid":keyID}` (`"typ"` after them when given), then `claims`.
    package func compactJWS(keyID: String, type: String? = nil, claims: JSONObject) -> String {
        CompactJWSEncoding.encode(algorithm: "RS256", keyID: keyID, type: type, claims: claims, sign: sign(message:))
    }
}

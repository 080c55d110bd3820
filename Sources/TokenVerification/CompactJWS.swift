import PlatformSupport
import StrictJSON

/// A JWS in compact serialization (RFC 7515 §7.1), split and decoded strictly but not yet
/// verified: three base64url parts without padding, each with exactly one accepted encoding,
/// a JSON-object header with no duplicate member.
package struct CompactJWS {
    /// Tokens larger than this are refused before any parsing (docs/API.md, INVALID_REQUEST: 16 KiB).
    static let maxTokenBytes = 16 * 1024
    /// Header parameters that would make a verifier fetch or trust a key named by the token
    /// itself, or that demand extensions we do not implement: a token carrying any is refused.
    static let refusedHeaderParameters = ["jku", "jwk", "x5u", "x5c", "crit"]

    package let header: JSONObject
    package let keyID: String
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes the signature covers.
    package let signingInput: ArraySlice<UInt8>
    package let encodedPayload: ArraySlice<UInt8>
    package let signature: [UInt8]

    package init(_ token: String) throws(TokenError) {
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maxTokenBytes else { throw .invalid("ID token is larger than 16 KiB") }
        let parts: CompactJWSParts
        do throws(CompactJWSParts.Problem) { parts = try CompactJWSParts(bytes) } catch {
            throw .invalid(
                error == .notThreeParts
                    ? "ID token is not a JWS in compact form (three dot-separated parts)" : "ID token has an empty part"
            )
        }
        encodedPayload = parts.payload
        guard let headerBytes = Base64.urlDecode(parts.header) else {
            throw .invalid("token header is not canonical unpadded base64url")
        }
        guard let signature = Base64.urlDecode(parts.signature) else {
            throw .invalid("token signature is not canonical unpadded base64url")
        }
        let header = try JSONParser.object(headerBytes, "token header", member: "parameter", TokenError.invalid)
        guard let alg = header["alg"] else { throw .invalid("token header has no algorithm") }
        guard alg == .string("RS256") else { throw .invalid("token algorithm is not RS256") }
        for name in Self.refusedHeaderParameters where header[name] != nil {
            throw .invalid(
                name == "crit"
                    ? "token header has a crit parameter (no extensions are supported)"
                    : "token header names its own key (\(name)), which is never followed")
        }
        guard let kid = header["kid"] else { throw .invalid("token header has no key id") }
        guard let kidText = kid.stringValue, !kidText.isEmpty, kidText.utf8.count <= 256 else {
            throw .invalid("token key id is not a short non-empty string")
        }
        self.header = header
        self.keyID = kidText
        self.signingInput = parts.signingInput
        self.signature = signature
    }

    /// The payload as a JSON object; called only after the signature has verified.
    package func claims() throws(TokenError) -> JSONObject {
        guard let payload = Base64.urlDecode(encodedPayload) else {
            throw .invalid("token payload is not canonical unpadded base64url")
        }
        return try JSONParser.object(payload, "token payload", member: "claim", TokenError.invalid)
    }
}

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
        var dots: [Int] = []
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: ".") {
            dots.append(i)
            if dots.count > 2 { break }
        }
        guard dots.count == 2 else {
            throw .invalid("ID token is not a JWS in compact form (three dot-separated parts)")
        }
        let encodedHeader = bytes[..<dots[0]]
        encodedPayload = bytes[(dots[0] + 1)..<dots[1]]
        let encodedSignature = bytes[(dots[1] + 1)...]
        guard !encodedHeader.isEmpty, !encodedPayload.isEmpty, !encodedSignature.isEmpty else {
            throw .invalid("ID token has an empty part")
        }
        guard let headerBytes = Base64URL.decode(encodedHeader) else {
            throw .invalid("token header is not canonical unpadded base64url")
        }
        guard let signature = Base64URL.decode(encodedSignature) else {
            throw .invalid("token signature is not canonical unpadded base64url")
        }
        let parsedHeader: JSONValue
        do throws(JSONError) { parsedHeader = try JSONParser.parse(headerBytes) } catch {
            throw .invalid(
                error.reason == .duplicateKey
                    ? "token header has a duplicate parameter"
                    : "token header is not valid JSON (\(error.reason.rawValue))")
        }
        guard let header = parsedHeader.objectValue else { throw .invalid("token header is not a JSON object") }
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
        self.signingInput = bytes[..<dots[1]]
        self.signature = signature
    }

    /// The payload as a JSON object; called only after the signature has verified.
    package func claims() throws(TokenError) -> JSONObject {
        guard let payload = Base64URL.decode(encodedPayload) else {
            throw .invalid("token payload is not canonical unpadded base64url")
        }
        let parsed: JSONValue
        do throws(JSONError) { parsed = try JSONParser.parse(payload) } catch {
            throw .invalid(
                error.reason == .duplicateKey
                    ? "token payload has a duplicate claim"
                    : "token payload is not valid JSON (\(error.reason.rawValue))")
        }
        guard let object = parsed.objectValue else { throw .invalid("token payload is not a JSON object") }
        return object
    }
}

/// base64url over byte slices, delegating to `PlatformSupport.Base64.urlDecode` (strict: url
/// alphabet only, no padding, no whitespace, unused trailing bits zero).
enum Base64URL {
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        // The token's bytes are valid UTF-8 (they came from a String); a non-ASCII byte simply
        // fails the alphabet check inside urlDecode.
        Base64.urlDecode(String(decoding: bytes, as: UTF8.self))
    }
}

import PlatformSupport
import TokenVerification

/// TokenVerification's `CompactJWS`: an accepted token has three parts, each the one base64url
/// encoding of its bytes (so no two texts name the same token); the header's rules hold; the
/// payload, when `claims()` accepts it, is canonical too.
enum CompactJWSFuzz {
    static func run(_ bytes: [UInt8]) {
        // Tokens arrive as JSON strings: always valid UTF-8.
        guard let text = String(validating: bytes, as: UTF8.self), let jws = try? CompactJWS(text) else { return }
        let parts = Array(text.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        require(parts.count == 3, "jws: an accepted token has three parts")
        require(canonical(parts[0]), "jws: the accepted header is canonical base64url")
        require(Array(Base64.urlEncode(jws.signature).utf8) == Array(parts[2]), "jws: the signature re-encodes as sent")
        require(Array(jws.signingInput) == Array(parts[0]) + [UInt8(ascii: ".")] + parts[1], "jws: signing input")
        require(jws.header["alg"] == .string("RS256"), "jws: alg is RS256")
        require(!jws.keyID.isEmpty && jws.keyID.utf8.count <= 256, "jws: kid is short and non-empty")
        for name in ["jku", "jwk", "x5u", "x5c", "crit"] {
            require(jws.header[name] == nil, "jws: no header parameter names a key")
        }
        if (try? jws.claims()) != nil {
            require(canonical(parts[1]), "jws: an accepted payload is canonical base64url")
        }
    }

    static func canonical(_ part: ArraySlice<UInt8>) -> Bool {
        guard let decoded = Base64.urlDecode(String(decoding: part, as: UTF8.self)) else { return false }
        return Array(Base64.urlEncode(decoded).utf8) == Array(part)
    }
}

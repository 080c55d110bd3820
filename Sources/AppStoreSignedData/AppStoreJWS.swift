import PlatformSupport
import StrictJSON

/// A JWS from the App Store in compact form, split and decoded strictly but not yet verified:
/// base64url parts (each with exactly one accepted encoding), a header that is a JSON object with
/// `alg` `ES256` and `x5c` of exactly three standard-base64 DER certificates, and a payload that
/// is a JSON object. Duplicate members are refused everywhere.
struct AppStoreJWS {
    /// A notification (three JWSs, six certificates) is about 20 KB; anything far larger is refused
    /// before parsing.
    static let maxBytes = 64 * 1024
    /// Header parameters that would have a verifier fetch or take a key the data names itself,
    /// or demand extensions we do not implement.
    static let refusedHeaderParameters = ["jku", "jwk", "x5u", "crit"]

    /// The header as sent (base64url): the cache of verified chains is keyed by these bytes, which
    /// fix `alg` and `x5c` entirely, so a hit needs no header parsing.
    let encodedHeader: ArraySlice<UInt8>
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes the signature covers.
    let signingInput: ArraySlice<UInt8>
    let signature: [UInt8]
    /// The payload, parsed before verification only so that `signedDate` can say when the chain
    /// must be valid; nothing else of it is read until the signature has verified.
    let payload: JSONObject

    /// Splits the compact form and decodes the payload and the signature; the header is read by
    /// `certificates()`.
    init(_ text: String) throws(AppStoreSignedDataError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maxBytes else { throw .malformed("JWS is larger than 64 KiB") }
        let parts: CompactJWSParts
        do throws(CompactJWSParts.Problem) { parts = try CompactJWSParts(bytes) } catch {
            throw .malformed(
                error == .notThreeParts
                    ? "not a JWS in compact form (three dot-separated parts)" : "JWS has an empty part")
        }
        guard let payloadBytes = Base64.urlDecode(parts.payload), let signature = Base64.urlDecode(parts.signature)
        else { throw .malformed("JWS part is not canonical unpadded base64url") }
        self.encodedHeader = parts.header
        self.signingInput = parts.signingInput
        self.signature = signature
        self.payload = try JSONParser.object(payloadBytes, "payload", AppStoreSignedDataError.malformed)
    }

    /// The header's rules (`alg` `ES256`, no key named by URL or inline, `x5c` of exactly three
    /// standard-base64 certificates); the DER of x5c[0] (leaf) and x5c[1] (intermediate). x5c[2]
    /// must decode but is not used: the root comes from configuration.
    func certificates() throws(AppStoreSignedDataError) -> (leaf: [UInt8], intermediate: [UInt8]) {
        guard let headerBytes = Base64.urlDecode(encodedHeader) else {
            throw .malformed("JWS part is not canonical unpadded base64url")
        }
        let header = try JSONParser.object(headerBytes, "header", AppStoreSignedDataError.malformed)
        guard let alg = header["alg"] else { throw .malformed("header has no alg") }
        guard alg == .string("ES256") else { throw AppStoreSignedDataError(.algorithm, "header alg is not ES256") }
        for name in Self.refusedHeaderParameters where header[name] != nil {
            throw .malformed("header has a \(name) parameter, which is never followed")
        }
        guard let x5c = header["x5c"]?.arrayValue else { throw .malformed("header has no x5c array") }
        guard x5c.count == 3 else { throw .malformed("header x5c does not hold exactly three certificates") }
        var certificates: [[UInt8]] = []
        for entry in x5c {
            // Standard base64 with padding, as RFC 7515 §4.1.6 says (base64url is refused).
            guard let text = entry.stringValue, let der = Base64.decode(text), !der.isEmpty else {
                throw .malformed("header x5c entry is not standard base64")
            }
            certificates.append(der)
        }
        return (certificates[0], certificates[1])
    }
}

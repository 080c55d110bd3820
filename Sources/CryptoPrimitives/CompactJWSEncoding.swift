import PlatformSupport
import StrictJSON

/// The JWS compact form both key types sign: `BASE64URL(header) . BASE64URL(claims) . BASE64URL(sig)`.
enum CompactJWSEncoding {
    static func encode(
        algorithm: String, keyID: String, type: String?, claims: JSONObject, sign: ([UInt8]) -> [UInt8]
    ) -> String {
        var header = JSONObject([("alg", .string(algorithm)), ("kid", .string(keyID))])
        if let type { header["typ"] = .string(type) }
        let signingInput =
            Base64.urlEncode(JSONValue.object(header).serialized()) + "."
            + Base64.urlEncode(JSONValue.object(claims).serialized())
        return signingInput + "." + Base64.urlEncode(sign(Array(signingInput.utf8)))
    }
}

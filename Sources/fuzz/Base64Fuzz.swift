import PlatformSupport

/// PlatformSupport's base64 decoders: canonical only. Whatever decodes encodes back to the same
/// text (base64url unpadded for tokens, standard padded for Function URL bodies and x5c).
enum Base64Fuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let decoded = Base64.urlDecode(text) {
            require(Base64.urlEncode(decoded) == text, "base64: urlEncode(urlDecode(x)) == x")
        }
        if let decoded = Base64.decode(text) {
            require(Base64.encode(decoded) == text, "base64: encode(decode(x)) == x")
        }
    }

    static let seeds: [(name: String, bytes: [UInt8])] = [
        ("url-0", Base64.urlEncode([UInt8]())), ("url-1", Base64.urlEncode([0xFB])),
        ("url-2", Base64.urlEncode([0xFB, 0xFF])), ("url-3", Base64.urlEncode([0xFB, 0xFF, 0xBF])),
        ("std-1", Base64.encode([0xFB])), ("std-2", Base64.encode([0xFB, 0xFF])),
        ("std-json", Base64.encode(Array(#"{"action":"refresh"}"#.utf8))),
    ].map { ($0.0, Array($0.1.utf8)) }
}

/// RFC 3986 percent-encoding of UTF-8 bytes, the one implementation: `A-Z a-z 0-9 - _ . ~` stay,
/// every other byte becomes `%XX` with uppercase digits (§2.1). SigV4's canonical requests and
/// the form bodies of Apple's token endpoints both use it.
package enum PercentEncoding {
    static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends the encoding of `text` to `out`; `/` stays when `keepingSlash` (paths).
    package static func append(_ text: String, keepingSlash: Bool = false, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + text.utf8.count)
        for b in text.utf8 {
            switch b {
            case _ where ASCII.isAlphanumeric(b), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(b)
            case UInt8(ascii: "/") where keepingSlash:
                out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0f)])
            }
        }
    }
}

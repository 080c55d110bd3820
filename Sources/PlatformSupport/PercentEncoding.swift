/// RFC 3986 percent-encoding of UTF-8 bytes, the one implementation: `A-Z a-z 0-9 - _ . ~` stay,
/// every other byte becomes `%XX` with uppercase digits (§2.1). SigV4's canonical requests and
/// the form bodies of Apple's token endpoints and STS both use it.
package enum PercentEncoding {
    /// Appends the encoding of `text` to `out`; `/` stays when `keepingSlash` (paths); a space
    /// becomes `+` when `spaceAsPlus` (botocore's form bodies, as Python's `urlencode` writes them).
    package static func append(
        _ text: String, keepingSlash: Bool = false, spaceAsPlus: Bool = false, to out: inout [UInt8]
    ) {
        var text = text
        // Encoded into one buffer of the largest size it can take, then appended once: appending
        // byte by byte costs a capacity and uniqueness check per byte (the STS policy is ~1 KB).
        let encoded = text.withUTF8 { bytes in
            [UInt8](unsafeUninitializedCapacity: bytes.count * 3) { buffer, count in
                var n = 0
                // The unreserved set as a bit per ASCII byte, `/` added for paths: one test a byte.
                let low = keepingSlash ? unreservedLow | 1 << UInt64(UInt8(ascii: "/")) : unreservedLow
                for b in bytes {
                    let kept = b < 64 ? (low >> UInt64(b)) & 1 : b < 128 ? (unreservedHigh >> UInt64(b - 64)) & 1 : 0
                    if kept != 0 {
                        buffer[n] = b
                        n += 1
                    } else if spaceAsPlus && b == UInt8(ascii: " ") {
                        buffer[n] = UInt8(ascii: "+")
                        n += 1
                    } else {
                        buffer[n] = UInt8(ascii: "%")
                        buffer[n + 1] = hexDigit(b >> 4)
                        buffer[n + 2] = hexDigit(b & 0x0f)
                        n += 3
                    }
                }
                count = n
            }
        }
        out.append(contentsOf: encoded)
    }

    /// `0-9 - .` (bytes 0-63) and `A-Z _ a-z ~` (bytes 64-127), one bit each.
    static var unreservedLow: UInt64 { 0x03FF_6000_0000_0000 }
    static var unreservedHigh: UInt64 { 0x47FF_FFFE_87FF_FFFE }

    /// An uppercase hex digit for 0...15.
    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") - 10 + v }
}

/// Hex and base64 encodings over byte arrays, strict where input comes from outside.
package enum Hex {
    /// Lowercase hex: the one encoder (digests in SigV4, hashes and ids in the account store).
    package static func encode(_ bytes: [UInt8]) -> String { bytes.withUnsafeBufferPointer(encode(buffer:)) }

    package static func encode(_ bytes: ArraySlice<UInt8>) -> String { bytes.withUnsafeBufferPointer(encode(buffer:)) }

    /// Any other collection of bytes, copied once. The concrete overloads above are what the hot
    /// paths call: a generic one is not specialized across modules, so every byte went through
    /// the protocol witnesses (an iterator call and an allocated read coroutine per byte).
    package static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 { encode(Array(bytes)) }

    static func encode(buffer: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: buffer.count * 2) { out in
            for (i, b) in buffer.enumerated() {
                out[2 * i] = digit(b >> 4)
                out[2 * i + 1] = digit(b & 0x0f)
            }
            return buffer.count * 2
        }
    }

    /// A lowercase hex digit for 0...15.
    static func digit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") - 10 + v }

    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = ASCII.hexDigitValue(chars[i]), let lo = ASCII.hexDigitValue(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

/// The canonical text of a UUID: lowercase hex in 8-4-4-4-12 groups.
package enum UUIDText {
    /// 36 characters, lowercase hex in 8-4-4-4-12 groups: the only UUID form this service writes,
    /// and the only one allowed into an S3 key or a policy.
    package static func isCanonical(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return false }
            } else {
                guard ASCII.isLowerHex(c) else { return false }
            }
        }
        return true
    }

    package static func format<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Array(bytes).withUnsafeBufferPointer(format(buffer:))
    }

    /// The concrete forms the hot paths call (a refresh token's first 16 bytes): the generic one
    /// is not specialized across modules (~48k instructions a refresh, in four Strings joined).
    package static func format(_ bytes: ArraySlice<UInt8>) -> String { bytes.withUnsafeBufferPointer(format(buffer:)) }
    package static func format(_ bytes: [UInt8]) -> String { bytes.withUnsafeBufferPointer(format(buffer:)) }

    static func format(buffer: UnsafeBufferPointer<UInt8>) -> String {
        precondition(buffer.count == 16, "a UUID is 16 bytes")
        return String(unsafeUninitializedCapacity: 36) { out in
            var n = 0
            for (i, b) in buffer.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[n] = UInt8(ascii: "-")
                    n += 1
                }
                out[n] = Hex.digit(b >> 4)
                out[n + 1] = Hex.digit(b & 0x0f)
                n += 2
            }
            return n
        }
    }
}

package enum Base64 {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let padding = UInt8(ascii: "=")

    /// Standard alphabet with `=` padding.
    package static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        encode(Array(bytes), alphabet: standard, pad: true)
    }

    /// base64url without padding (JWS, RFC 7515 §2).
    package static func urlEncode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        encode(Array(bytes), alphabet: urlSafe, pad: false)
    }

    /// Strict base64url: url alphabet only, no padding, no whitespace, and the unused low bits of
    /// the last character must be zero (so each byte string has exactly one accepted encoding).
    package static func urlDecode(_ text: Substring) -> [UInt8]? {
        decode(Array(text.utf8), urlSafe: true, padded: false)
    }
    package static func urlDecode(_ text: String) -> [UInt8]? { urlDecode(Substring(text)) }
    /// The same over a part of a token's bytes (a non-ASCII byte fails the alphabet check).
    package static func urlDecode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        decode(Array(bytes), urlSafe: true, padded: false)
    }

    /// Standard base64 with padding (Function URL bodies). Also strict.
    package static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8), urlSafe: false, padded: true) }

    /// Written into the String's own buffer: appending a four-element array literal per three
    /// bytes allocated that array each time.
    private static func encode(_ b: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        let full = b.count / 3
        let rest = b.count - full * 3
        let length = full * 4 + (rest == 0 ? 0 : pad ? 4 : rest + 1)
        return alphabet.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                String(unsafeUninitializedCapacity: length) { out in
                    var o = 0
                    func put(_ n: UInt32, _ count: Int) {
                        for k in 0..<count {
                            out[o] = a[Int(n >> UInt32(18 - 6 * k) & 63)]
                            o += 1
                        }
                    }
                    var i = 0
                    while i + 3 <= b.count {
                        put(UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]), 4)
                        i += 3
                    }
                    if rest == 1 {
                        put(UInt32(b[i]) << 16, 2)
                    } else if rest == 2 {
                        put(UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8, 3)
                    }
                    while o < length {
                        out[o] = padding
                        o += 1
                    }
                    return length
                }
            }
        }
    }

    private static func value(_ c: UInt8, urlSafe: Bool) -> UInt32? {
        switch c {
        case _ where ASCII.isUpper(c): return UInt32(c - UInt8(ascii: "A"))
        case _ where ASCII.isLower(c): return UInt32(c - UInt8(ascii: "a")) + 26
        case _ where ASCII.isDigit(c): return UInt32(c - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-") where urlSafe: return 62
        case UInt8(ascii: "_") where urlSafe: return 63
        case UInt8(ascii: "+") where !urlSafe: return 62
        case UInt8(ascii: "/") where !urlSafe: return 63
        default: return nil
        }
    }

    private static func decode(_ input: [UInt8], urlSafe: Bool, padded: Bool) -> [UInt8]? {
        var chars = input[...]
        if padded {
            guard chars.count % 4 == 0 else { return nil }
            if chars.last == padding { chars = chars.dropLast() }
            if chars.last == padding { chars = chars.dropLast() }
        }
        guard chars.count % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in chars {
            guard let v = value(c, urlSafe: urlSafe) else { return nil }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                acc &= (1 << UInt32(bits)) - 1
            }
        }
        guard acc == 0 else { return nil }  // non-canonical trailing bits
        return out
    }
}

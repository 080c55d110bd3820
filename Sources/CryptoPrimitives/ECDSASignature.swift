/// P-256 ECDSA signatures in their two encodings: JWS's fixed 64-byte `r ‖ s` (RFC 7518 §3.4)
/// and the DER `SEQUENCE { INTEGER r, INTEGER s }` that libcrypto reads and writes.
enum ECDSASignature {
    /// Bytes of one scalar, and of the `r ‖ s` form.
    static let scalarByteCount = 32
    static let rawByteCount = 64

    /// The order n of the P-256 group, big-endian (SEC 2 §2.4.2).
    static let order: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
    ]

    /// Whether a 32-byte big-endian scalar is in [1, n-1], the only range a signature's r and s
    /// may take (SEC 1 §4.1.4 step 1). libcrypto checks this too; checking here keeps the rule in
    /// sight and refuses before any DER is built.
    static func isValidScalar(_ scalar: ArraySlice<UInt8>) -> Bool {
        guard scalar.count == scalarByteCount, scalar.contains(where: { $0 != 0 }) else { return false }
        for (a, b) in zip(scalar, order) where a != b { return a < b }
        return false  // equal to n
    }

    /// `r ‖ s` (exactly 64 bytes) as DER. Leading zero bytes are dropped and a zero byte is put
    /// back in front of a scalar whose high bit is set, so each INTEGER is minimal and positive.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawByteCount else { return nil }
        let r = integer(raw[0..<scalarByteCount])
        let s = integer(raw[scalarByteCount..<rawByteCount])
        // At most 2 × (2 + 33) = 70 bytes of content: the short length form always fits.
        return [0x30, UInt8(r.count + s.count)] + r + s
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` as `r ‖ s`, each scalar left-padded to 32 bytes.
    /// Strict: short-form lengths only (a P-256 signature is at most 72 bytes), minimal positive
    /// integers of at most 32 significant bytes, nothing after the sequence.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard der.count >= 2, der[0] == 0x30, Int(der[1]) == der.count - 2, der[1] < 0x80 else { return nil }
        var i = 2
        var out: [UInt8] = []
        out.reserveCapacity(rawByteCount)
        for _ in 0..<2 {
            guard i + 2 <= der.count, der[i] == 0x02, der[i + 1] < 0x80 else { return nil }
            let length = Int(der[i + 1])
            let start = i + 2
            guard length > 0, start + length <= der.count else { return nil }
            var value = der[start..<(start + length)]
            if value.first! & 0x80 != 0 { return nil }  // negative
            if value.count > 1, value.first == 0 {
                // A leading zero is allowed only to keep a high bit from reading as a sign.
                guard value[value.startIndex + 1] & 0x80 != 0 else { return nil }
                value = value.dropFirst()
            }
            guard value.count <= scalarByteCount else { return nil }
            out += [UInt8](repeating: 0, count: scalarByteCount - value.count) + value
            i = start + length
        }
        guard i == der.count else { return nil }
        return out
    }

    /// A 32-byte big-endian scalar as a DER INTEGER (minimal, positive).
    private static func integer(_ scalar: ArraySlice<UInt8>) -> [UInt8] {
        var value = scalar.drop(while: { $0 == 0 })
        if value.isEmpty { value = [0][...] }
        let body = value.first! & 0x80 != 0 ? [0] + value : Array(value)
        return [0x02, UInt8(body.count)] + body
    }
}

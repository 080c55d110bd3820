/// The scan both the parser and the serializer make over a string's bytes: up to the first byte a
/// JSON string cannot hold as is (`"`, `\` or a control character), eight bytes at a time. A byte
/// at a time it cost ~16 instructions a byte, and a sign-in writes ~3 KB of strings (its answer,
/// its metric record, its session record) and reads as much.
enum JSONStringRun {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first such byte at or after `start` (`bytes.count` if none), and whether
    /// every byte before it is ASCII.
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, isASCII: Bool) {
        var i = start
        var seen: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= bytes.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // Each term is nonzero exactly when some byte is < 0x20, is `"`, or is `\` (the
                // "has zero byte" tests; exact as a yes/no, which is all that is asked here).
                let quote = w ^ (ones &* 0x22)
                let backslash = w ^ (ones &* 0x5C)
                let control = (w &- ones &* 0x20) & ~w
                let special = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
                if special != 0 { break }
                seen |= w
                i += 8
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < UInt8(ascii: " ") { break }
            seen |= UInt64(b)
            i += 1
        }
        return (i, seen & highs == 0)
    }
}

/// Byte classes over ASCII, by name: configuration, S3 names, hosts and identifiers are checked
/// byte by byte (Unicode properties would link the stdlib's tables into the bootstrap).
package enum ASCII {
    @inlinable package static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    @inlinable package static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    @inlinable static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    @inlinable package static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || isLower(b) || isUpper(b) }
    /// `0-9a-f`: the hex this service writes (session ids, hashes, UUIDs).
    @inlinable package static func isLowerHex(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x61 && b <= 0x66) }
    /// Space, tab and the line breaks (`\t \n \v \f \r`).
    @inlinable package static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
    /// Printable ASCII, space included (what an HTTP header value may hold here).
    @inlinable package static func isPrintable(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F }
    /// Printable ASCII other than space (RFC 5234 `VCHAR`): what a URL in configuration may hold.
    @inlinable package static func isVisible(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }

    /// The value of a hex digit in either case (`0-9a-fA-F`), nil for any other byte.
    @inlinable package static func hexDigitValue(_ b: UInt8) -> UInt8? {
        if isDigit(b) { return b - 0x30 }
        if b >= 0x61 && b <= 0x66 { return b - 0x61 + 10 }
        if b >= 0x41 && b <= 0x46 { return b - 0x41 + 10 }
        return nil
    }

    /// `A-Z` as `a-z`; every other byte unchanged (UTF-8 continuation bytes included).
    @inlinable package static func lowercased(_ b: UInt8) -> UInt8 { isUpper(b) ? b + 0x20 : b }
    /// `a-z` as `A-Z`; every other byte unchanged.
    @inlinable package static func uppercased(_ b: UInt8) -> UInt8 { isLower(b) ? b - 0x20 : b }

    /// The bytes without `isSpace` bytes at either end, as a slice (nothing copied). The one
    /// trimmer: `String.trimmingASCIISpaces()` and SigV4's header-value rule are built on it.
    @inlinable package static func trimmingSpaces<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> Bytes.SubSequence
    where Bytes.Element == UInt8 {
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    /// The same over a buffer, by index (SigV4 trims every header value it signs): the generic one
    /// above is not specialized across modules.
    package static func trimmingSpaces(_ bytes: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }
}

extension String {
    /// Without ASCII spaces, tabs and line breaks at either end; other bytes, inner ones and any
    /// Unicode space are kept (ASCII only, for the reason `ASCII` gives).
    package func trimmingASCIISpaces() -> String {
        // Only ASCII bytes are removed, so the slice starts and ends on scalar boundaries.
        String(Substring(ASCII.trimmingSpaces(utf8)))
    }

    /// A comma-separated configuration list (`APPLE_AUDIENCES`, `GOOGLE_AUDIENCES`): items trimmed
    /// of ASCII spaces, empty items dropped, duplicates removed, order kept.
    package func commaSeparatedItems() -> [String] {
        var out: [String] = []
        for item in split(separator: ",") {
            let value = String(item).trimmingASCIISpaces()
            if !value.isEmpty && !out.contains(value) { out.append(value) }
        }
        return out
    }

    /// Whether the two are equal with `A-Z` and `a-z` taken as the same (HTTP header names),
    /// compared byte by byte instead of through lowercased copies.
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var a = self
        var b = other
        // Over contiguous bytes: the UTF8Views' iterators cost ~10 instructions a byte.
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) { ASCII.lowercased($0) == ASCII.lowercased($1) } }
        }
    }

    /// `A-Z` as `a-z`, every other character unchanged; the string itself when nothing changes.
    package func lowercasedASCII() -> String {
        guard utf8.contains(where: { ASCII.isUpper($0) }) else { return self }
        return String(decoding: utf8.map { ASCII.lowercased($0) }, as: UTF8.self)
    }
}

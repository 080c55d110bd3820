import PlatformSupport

/// The encodings SigV4 and the AWS REST protocols share.
package enum SigV4 {
    /// RFC 3986 percent-encoding of the UTF-8 bytes (`PercentEncoding`); `/` stays when
    /// `encodeSlash` is false (paths).
    package static func encode(_ text: String, encodeSlash: Bool = true) -> String {
        var out = [UInt8]()
        PercentEncoding.append(text, keepingSlash: !encodeSlash, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// An object key as an S3 path: each byte encoded once, `/` kept, nothing normalized.
    package static func encodePath(_ key: String) -> String { encode(key, encodeSlash: false) }

    /// Percent-decoding (for `encoding-type=url` list answers); nil on a malformed escape or
    /// bytes that are not UTF-8.
    package static func decode(_ text: String) -> String? {
        var out = [UInt8]()
        let b = Array(text.utf8)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "%") {
                guard i + 2 < b.count, let high = ASCII.hexDigitValue(b[i + 1]), let low = ASCII.hexDigitValue(b[i + 2])
                else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else if b[i] == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
                i += 1  // S3's url encoding-type writes spaces as "+"
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `name=value` pairs, encoded, sorted by name then value (byte order), joined with `&`.
    static func canonicalQuery(_ params: [(name: String, value: String)]) -> String {
        let encoded = params.map { (encode($0.name), encode($0.value)) }
        let sorted = encoded.sorted { a, b in a.0 == b.0 ? bytesLess(a.1, b.1) : bytesLess(a.0, b.0) }
        return sorted.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
    }

    /// RFC 3986 §5.2.4 dot-segment removal plus removal of empty segments, as every AWS service
    /// but S3 expects (botocore's `normalize_url_path`).
    package static func normalizePath(_ path: String) -> String {
        if path.isEmpty { return "/" }
        var out: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                if !out.isEmpty { out.removeLast() }
                continue
            }
            out.append(segment)
        }
        let lead = path.hasPrefix("/") ? "/" : ""
        let trail = path.hasSuffix("/") && !out.isEmpty ? "/" : ""
        return lead + out.joined(separator: "/") + trail
    }

    /// Trims leading and trailing whitespace and collapses inner runs to one space.
    static func trimAll(_ value: String) -> String { String(decoding: trimAll(bytes: value.utf8), as: UTF8.self) }

    /// SigV4's header-value rule: the shared ASCII trim (`ASCII.trimmingSpaces`), then every inner
    /// run of whitespace collapsed to one space.
    static func trimAll(bytes value: String.UTF8View) -> [UInt8] {
        // Over the contiguous UTF-8 of a native string (the signing loop's hot path); others copy once.
        if let result = value.withContiguousStorageIfAvailable(trimAll(buffer:)) { return result }
        return Array(value).withUnsafeBufferPointer(trimAll(buffer:))
    }

    private static func trimAll(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let trimmed = ASCII.trimmingSpaces(buffer)
        let space = UInt8(ascii: " ")
        // Most values need nothing more: no whitespace inside but single spaces.
        var clean = true
        var previous: UInt8 = 0
        for b in trimmed {
            if ASCII.isSpace(b) && (b != space || previous == space) {
                clean = false
                break
            }
            previous = b
        }
        if clean { return Array(trimmed) }
        var out = [UInt8]()
        out.reserveCapacity(trimmed.count)
        var pendingSpace = false
        for b in trimmed {
            if ASCII.isSpace(b) {
                pendingSpace = true
            } else {
                if pendingSpace {
                    out.append(space)
                    pendingSpace = false
                }
                out.append(b)
            }
        }
        return out
    }

    static func bytesLess(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}

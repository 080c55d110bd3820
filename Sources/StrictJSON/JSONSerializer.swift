import PlatformSupport

/// Compact JSON output. Strings are escaped per RFC 8259 (and `/` is left alone).
extension JSONValue {
    package func serialized() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    package func serializedString() -> String { String(decoding: serialized(), as: UTF8.self) }

    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let obj):
            out.append(UInt8(ascii: "{"))
            for (n, member) in obj.members.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `s` as a JSON string literal, quotes included, appended to `out` (for a document written
    /// straight into bytes, as the session policy is). Copies each run of bytes that needs no escape
    /// in one append (most strings are one run), instead of appending byte by byte.
    package static func writeString(_ s: String, into out: inout [UInt8]) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        out.append(quote)
        var text = s
        text.withUTF8 { bytes in
            var start = 0
            while true {
                let end = JSONStringRun.scan(bytes, from: start).end
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                guard end < bytes.count else { break }
                let b = bytes[end]
                out.append(backslash)
                switch b {
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                case quote, backslash: out.append(b)
                default:
                    // Any other control character as `\u00xx` (RFC 8259 §7).
                    out.append(contentsOf: "u00".utf8)
                    out.append(contentsOf: Hex.encode(CollectionOfOne(b)).utf8)
                }
                start = end + 1
            }
        }
        out.append(quote)
    }
}

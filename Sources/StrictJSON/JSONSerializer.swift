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

    static func writeString(_ s: String, into out: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [backslash, b]
            case UInt8(ascii: "\n"): out += [backslash, UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [backslash, UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [backslash, UInt8(ascii: "t")]
            case _ where b < UInt8(ascii: " "):
                // Any other control character as `\u00xx` (RFC 8259 §7).
                out += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                out += Hex.encode(CollectionOfOne(b)).utf8
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

import TestSupport
import Testing

@testable import StrictJSON

/// Strings are scanned eight bytes at a time on both sides (JSONStringRun): every byte that needs
/// an escape, and every byte that is not ASCII, must still be seen at every position of a word.
@Suite struct JSONStringRunTests {
    /// The escaping rule byte by byte, as the serializer applied it before.
    func plainEscaped(_ s: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), b]
            case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
            case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        return out + [UInt8(ascii: "\"")]
    }

    @Test func stringsSerializeAsBeforeAndParseBack() throws {
        var random = SeededRandom(seed: 8)
        let pieces = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "€", "😀", "ab",
            "abcdefgh",
        ]
        for _ in 0..<3_000 {
            var s = ""
            for _ in 0..<random.below(40) { s += random.pick(pieces) }
            var out: [UInt8] = []
            JSONValue.writeString(s, into: &out)
            #expect(out == plainEscaped(s), "\(Array(s.utf8))")
            #expect(try JSONParser.parse(out) == .string(s))
        }
    }

    @Test func aSpecialByteIsFoundAtEveryOffsetOfAWord() throws {
        for length in 0..<24 {
            for at in 0..<max(length, 1) {
                for special in [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x1F] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    if at < length { bytes[at] = special }
                    let scanned = bytes.withUnsafeBufferPointer { JSONStringRun.scan($0, from: 0) }
                    #expect(scanned.end == (at < length ? at : length) && scanned.isASCII)
                }
            }
        }
    }

    @Test func invalidUTF8IsRefusedAtEveryOffsetOfAWord() throws {
        for length in 1..<20 {
            for at in 0..<length {
                for bad: [UInt8] in [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80]] {
                    var inner = [UInt8](repeating: UInt8(ascii: "y"), count: length)
                    inner.replaceSubrange(at..<(at + 1), with: bad)
                    let doc = [UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\"")]
                    #expect(throws: JSONError.self) { try JSONParser.parse(doc) }
                }
            }
        }
        // Valid multi-byte text at every offset still parses.
        for at in 0..<12 {
            let s = String(repeating: "y", count: at) + "é€😀" + String(repeating: "z", count: 11 - at)
            #expect(try JSONParser.parse(Array("\"\(s)\"".utf8)) == .string(s))
        }
    }

    @Test func objectKeysCompareByBytes() {
        var o = JSONObject([("e\u{301}", .int(1))])
        #expect(o["é"] == nil && o["e\u{301}"] == .int(1))
        o["é"] = .int(2)
        #expect(o.members.count == 2)
        #expect(JSONObject.sameKey("abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz"))
        #expect(!JSONObject.sameKey("abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyZ"))
    }
}

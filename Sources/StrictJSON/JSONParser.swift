import PlatformSupport

/// Why a document was refused. The offset is a byte index, safe to report (it echoes no content).
package struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Reason: String, Sendable {
        case unexpectedEnd = "unexpected end of input"
        case unexpectedCharacter = "unexpected character"
        case invalidNumber = "invalid number"
        case invalidString = "invalid string"
        case invalidEscape = "invalid escape"
        case invalidUTF8 = "invalid UTF-8"
        case duplicateKey = "duplicate object key"
        case tooDeep = "nesting too deep"
        case trailingData = "data after the JSON value"
    }
    package let reason: Reason
    package let offset: Int
    package var description: String { "\(reason.rawValue) at byte \(offset)" }
}

/// A strict RFC 8259 parser: one value, no comments, no trailing commas, no NaN, valid UTF-8 and
/// surrogate pairs only, duplicate keys refused, nesting bounded.
package struct JSONParser {
    package static let maxDepth = 64
    /// Up to this many members, a new key is compared with the object's own keys (no allocation);
    /// beyond, with a set of them.
    static let linearKeyCheck = 16

    package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buf) throws(JSONError) -> JSONValue in
            var p = Cursor(buf: buf)
            p.skipWhitespace()
            let v = try p.value(depth: 0)
            p.skipWhitespace()
            guard p.i == buf.count else { throw JSONError(reason: .trailingData, offset: p.i) }
            return v
        }
    }

    package static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    private struct Cursor {
        let buf: UnsafeBufferPointer<UInt8>
        var i = 0

        func fail(_ r: JSONError.Reason) -> JSONError { JSONError(reason: r, offset: i) }

        /// RFC 8259's four whitespace bytes (not `\v` or `\f`, which `ASCII.isSpace` also takes).
        mutating func skipWhitespace() {
            while i < buf.count,
                buf[i] == UInt8(ascii: " ") || buf[i] == UInt8(ascii: "\n") || buf[i] == UInt8(ascii: "\r")
                    || buf[i] == UInt8(ascii: "\t")
            { i += 1 }
        }

        mutating func literal(_ word: StaticString, _ v: JSONValue) throws(JSONError) -> JSONValue {
            let n = word.utf8CodeUnitCount
            guard i + n <= buf.count else { throw fail(.unexpectedEnd) }
            for k in 0..<n where buf[i + k] != word.utf8Start[k] {
                throw JSONError(reason: .unexpectedCharacter, offset: i + k)
            }
            i += n
            return v
        }

        mutating func value(depth: Int) throws(JSONError) -> JSONValue {
            guard i < buf.count else { throw fail(.unexpectedEnd) }
            switch buf[i] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail(.unexpectedCharacter)
            }
        }

        mutating func object(depth: Int) throws(JSONError) -> JSONValue {
            guard depth <= JSONParser.maxDepth else { throw fail(.tooDeep) }
            i += 1
            var obj = JSONObject()
            // Byte-wise, as RFC 8259 compares names (a Set<String> would merge canonically
            // equivalent keys, refusing valid documents and aliasing lookups). The first keys are
            // checked against the object's own, without allocating; a large object switches to a
            // set, so that many keys stay linear.
            var seen = Set<[UInt8]>()
            skipWhitespace()
            if i < buf.count, buf[i] == UInt8(ascii: "}") {
                i += 1
                return .object(obj)
            }
            while true {
                skipWhitespace()
                guard i < buf.count else { throw fail(.unexpectedEnd) }
                guard buf[i] == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter) }
                let keyStart = i
                let key = try string()
                if obj.count < JSONParser.linearKeyCheck {
                    guard !obj.contains(key) else { throw JSONError(reason: .duplicateKey, offset: keyStart) }
                } else {
                    if seen.isEmpty { for member in obj { seen.insert(Array(member.key.utf8)) } }
                    guard seen.insert(Array(key.utf8)).inserted else {
                        throw JSONError(reason: .duplicateKey, offset: keyStart)
                    }
                }
                skipWhitespace()
                guard i < buf.count else { throw fail(.unexpectedEnd) }
                guard buf[i] == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter) }
                i += 1
                skipWhitespace()
                obj.appendUnchecked(key, try value(depth: depth))
                skipWhitespace()
                guard i < buf.count else { throw fail(.unexpectedEnd) }
                if buf[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if buf[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(obj)
                }
                throw fail(.unexpectedCharacter)
            }
        }

        mutating func array(depth: Int) throws(JSONError) -> JSONValue {
            guard depth <= JSONParser.maxDepth else { throw fail(.tooDeep) }
            i += 1
            var items = [JSONValue]()
            skipWhitespace()
            if i < buf.count, buf[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth))
                skipWhitespace()
                guard i < buf.count else { throw fail(.unexpectedEnd) }
                if buf[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if buf[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(items)
                }
                throw fail(.unexpectedCharacter)
            }
        }

        mutating func number() throws(JSONError) -> JSONValue {
            let start = i
            let isDigit = ASCII.isDigit
            if buf[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buf.count, isDigit(buf[i]) else { throw fail(.invalidNumber) }
            if buf[i] == UInt8(ascii: "0") {
                i += 1
                if i < buf.count, isDigit(buf[i]) { throw fail(.invalidNumber) }  // no leading zeros
            } else {
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            if i < buf.count, buf[i] == UInt8(ascii: ".") {
                i += 1
                guard i < buf.count, isDigit(buf[i]) else { throw fail(.invalidNumber) }
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
                i += 1
                if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
                guard i < buf.count, isDigit(buf[i]) else { throw fail(.invalidNumber) }
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self))
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard i + 4 <= buf.count else { throw fail(.unexpectedEnd) }
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let d = ASCII.hexDigitValue(buf[i]) else { throw fail(.invalidEscape) }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }

        mutating func string() throws(JSONError) -> String {
            i += 1  // opening quote
            // Most strings hold no escape: made straight from the input bytes, validated once.
            let (end, isASCII) = JSONStringRun.scan(buf, from: i)
            if end < buf.count, buf[end] == UInt8(ascii: "\"") {
                let start = i
                i = end + 1  // past the closing quote, where the slow path reports invalid UTF-8 too
                let bytes = UnsafeBufferPointer(rebasing: buf[start..<end])
                // ASCII is valid UTF-8 as it is: the generic validation costs metadata look-ups per call.
                if isASCII { return String(decoding: bytes, as: UTF8.self) }
                guard let s = String(validating: bytes, as: UTF8.self) else { throw fail(.invalidUTF8) }
                return s
            }
            var out = [UInt8]()
            var runStart = i
            while true {
                guard i < buf.count else { throw fail(.unexpectedEnd) }
                let c = buf[i]
                if c == UInt8(ascii: "\"") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<i]))
                    i += 1
                    break
                }
                if c < UInt8(ascii: " ") { throw fail(.invalidString) }  // control characters must be escaped
                if c == UInt8(ascii: "\\") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<i]))
                    i += 1
                    guard i < buf.count else { throw fail(.unexpectedEnd) }
                    let e = buf[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)  // backspace
                    case UInt8(ascii: "f"): out.append(0x0C)  // form feed
                    case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                    case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard i + 2 <= buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u")
                            else {
                                throw fail(.invalidEscape)
                            }
                            i += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw fail(.invalidEscape) }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw fail(.invalidEscape)
                        }
                        guard let u = Unicode.Scalar(scalar) else { throw fail(.invalidEscape) }
                        out.append(contentsOf: Array(String(Character(u)).utf8))
                    default:
                        i -= 1
                        throw fail(.invalidEscape)
                    }
                    runStart = i
                    continue
                }
                i += 1
            }
            // Validate UTF-8 without repairing it: a repaired string would be a different token.
            guard let s = String(validating: out, as: UTF8.self) else { throw fail(.invalidUTF8) }
            return s
        }
    }
}

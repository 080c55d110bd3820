/// A small, strict reader for the XML that S3 and STS answer with: elements, text, the five
/// predefined entities, numeric character references, CDATA, comments and the XML declaration.
/// Namespace prefixes are dropped (`<s3:Key>` reads as `Key`), attributes are skipped. DOCTYPE
/// (and with it every user-defined entity) is refused, so there is no entity expansion to abuse;
/// depth and element count are bounded. Not a general XML parser, on purpose.
struct XMLTag: Sendable {
    var name: String
    var children: [XMLTag] = []
    /// Concatenated character data directly inside this element.
    var text: String = ""

    func child(_ name: String) -> XMLTag? { children.first { $0.name == name } }
    func children(_ name: String) -> [XMLTag] { children.filter { $0.name == name } }
    /// Text of the first child with this name.
    subscript(_ name: String) -> String? { child(name)?.text }
    /// Follows a path of child names: `root.path("AssumeRoleResult", "Credentials")`.
    func path(_ names: String...) -> XMLTag? {
        var node: XMLTag? = self
        for n in names { node = node?.child(n) }
        return node
    }
}

enum XMLReader {
    static let maxDepth = 32
    static let maxElements = 200_000

    /// The document's root element, or nil when the bytes are not well-formed enough to trust.
    static func parse(_ bytes: [UInt8]) -> XMLTag? {
        var p = Parser(b: bytes)
        return p.document()
    }

    private struct Parser {
        let b: [UInt8]
        var i = 0
        var elements = 0

        init(b: [UInt8]) { self.b = b }

        mutating func document() -> XMLTag? {
            // A UTF-8 byte-order mark is allowed before anything else.
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            guard skipMisc() else { return nil }
            guard i < b.count, b[i] == UInt8(ascii: "<") else { return nil }
            guard let root = element(depth: 0) else { return nil }
            guard skipMisc(), i == b.count else { return nil }
            return root
        }

        /// Skips whitespace, comments and processing instructions (the `<?xml ...?>` declaration).
        mutating func skipMisc() -> Bool {
            while true {
                while i < b.count, isSpace(b[i]) { i += 1 }
                if has("<?") {
                    guard skip(past: "?>") else { return false }
                } else if has("<!--") {
                    guard skip(past: "-->") else { return false }
                } else if has("<!") {
                    return false  // DOCTYPE and friends
                } else {
                    return true
                }
            }
        }

        mutating func element(depth: Int) -> XMLTag? {
            guard depth < XMLReader.maxDepth, elements < XMLReader.maxElements else { return nil }
            elements += 1
            guard i < b.count, b[i] == UInt8(ascii: "<") else { return nil }
            i += 1
            guard let qname = nameRange() else { return nil }
            var node = XMLTag(name: localName(qname))
            // Attributes: name="value" or name='value', skipped.
            while true {
                while i < b.count, isSpace(b[i]) { i += 1 }
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "/") {
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") else { return nil }
                    i += 2
                    return node
                }
                if b[i] == UInt8(ascii: ">") {
                    i += 1
                    break
                }
                guard nameRange() != nil else { return nil }
                while i < b.count, isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "=") else { return nil }
                i += 1
                while i < b.count, isSpace(b[i]) { i += 1 }
                guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { return nil }
                let quote = b[i]
                i += 1
                while i < b.count, b[i] != quote {
                    guard b[i] != UInt8(ascii: "<") else { return nil }
                    i += 1
                }
                guard i < b.count else { return nil }
                i += 1
            }
            // Content. Character data is taken in runs up to the next `<` or `&`; an element whose
            // text is one run (the usual case) is made a String straight from the input.
            var text: [UInt8] = []
            var run: Range<Int>? = nil
            while true {
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "<") {
                    if has("</") {
                        i += 2
                        guard let closing = nameRange(), same(closing, qname) else { return nil }
                        while i < b.count, isSpace(b[i]) { i += 1 }
                        guard i < b.count, b[i] == UInt8(ascii: ">") else { return nil }
                        i += 1
                        guard let decoded = run.map({ utf8String(b[$0]) }) ?? utf8String(text[...]) else { return nil }
                        node.text = decoded
                        return node
                    } else if has("<![CDATA[") {
                        i += 9
                        let start = i
                        guard skip(past: "]]>") else { return nil }
                        flush(&run, into: &text)
                        text.append(contentsOf: b[start..<(i - 3)])
                    } else if has("<!--") {
                        guard skip(past: "-->") else { return nil }
                    } else if has("<?") {
                        guard skip(past: "?>") else { return nil }
                    } else if has("<!") {
                        return nil
                    } else {
                        guard let child = element(depth: depth + 1) else { return nil }
                        node.children.append(child)
                    }
                } else if b[i] == UInt8(ascii: "&") {
                    guard let decoded = entity() else { return nil }
                    flush(&run, into: &text)
                    text.append(contentsOf: decoded)
                } else {
                    let start = i
                    while i < b.count, b[i] != UInt8(ascii: "<"), b[i] != UInt8(ascii: "&") { i += 1 }
                    if run == nil && text.isEmpty {
                        run = start..<i
                    } else {
                        flush(&run, into: &text)
                        text.append(contentsOf: b[start..<i])
                    }
                }
            }
        }

        /// Moves a pending run of character data into `text`, where later pieces join it.
        func flush(_ run: inout Range<Int>?, into text: inout [UInt8]) {
            guard let pending = run else { return }
            text.append(contentsOf: b[pending])
            run = nil
        }

        /// Strict UTF-8 (nil for invalid bytes); ASCII, what S3 and STS send, without the generic
        /// validation's metadata look-ups.
        func utf8String(_ bytes: ArraySlice<UInt8>) -> String? {
            if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes, as: UTF8.self)
        }

        func same(_ a: Range<Int>, _ c: Range<Int>) -> Bool {
            a.count == c.count && b[a].elementsEqual(b[c])
        }

        /// A reference at `i` (`&amp;`, `&#60;`, `&#x3C;`), as UTF-8 bytes.
        mutating func entity() -> [UInt8]? {
            guard let semi = b[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
            let body = String(decoding: b[(i + 1)..<semi], as: UTF8.self)
            i = semi + 1
            switch body {
            case "amp": return [UInt8(ascii: "&")]
            case "lt": return [UInt8(ascii: "<")]
            case "gt": return [UInt8(ascii: ">")]
            case "quot": return [UInt8(ascii: "\"")]
            case "apos": return [UInt8(ascii: "'")]
            default:
                var value: UInt32?
                if body.hasPrefix("#x") {
                    value = UInt32(body.dropFirst(2), radix: 16)
                } else if body.hasPrefix("#") {
                    value = UInt32(body.dropFirst(1), radix: 10)
                }
                guard let v = value, v != 0, let scalar = Unicode.Scalar(v) else { return nil }
                return Array(String(Character(scalar)).utf8)
            }
        }

        /// The bytes of a name at `i` (a qualified one, prefix included).
        mutating func nameRange() -> Range<Int>? {
            let start = i
            while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/"),
                b[i] != UInt8(ascii: "="),
                b[i] != UInt8(ascii: "<"), b[i] != UInt8(ascii: "&"), b[i] != UInt8(ascii: "\""),
                b[i] != UInt8(ascii: "'")
            { i += 1 }
            guard i > start, i - start <= 256 else { return nil }
            return start..<i
        }

        /// The name without its namespace prefix (what follows the last `:`).
        func localName(_ qname: Range<Int>) -> String {
            let local = b[qname].lastIndex(of: UInt8(ascii: ":")).map { ($0 + 1)..<qname.upperBound } ?? qname
            return String(decoding: b[local], as: UTF8.self)
        }

        func has(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            guard i + n <= b.count else { return false }
            return literal.withUTF8Buffer { lit in
                for k in 0..<n where b[i + k] != lit[k] { return false }
                return true
            }
        }

        /// Moves `i` just past the next occurrence of `literal`; false when there is none.
        mutating func skip(past literal: StaticString) -> Bool {
            while i < b.count {
                if has(literal) {
                    i += literal.utf8CodeUnitCount
                    return true
                }
                i += 1
            }
            return false
        }

        // XML's `S` production: space, tab, LF, CR (not `\v`/`\f`, which `ASCII.isSpace` also takes).
        func isSpace(_ c: UInt8) -> Bool {
            c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r")
        }
    }
}

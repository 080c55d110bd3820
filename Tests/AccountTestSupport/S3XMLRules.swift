/// How S3 reads a DeleteObjects body, after the XML 1.0 rules its parser applies (and S3's
/// "XML related object key constraints" page states): every character must be an XML `Char`
/// (tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 on), raw or referenced (`&#1;` is as
/// malformed as a raw U+0001), else the whole request is refused (`MalformedXML`); line ends are
/// normalized before anything else (a raw CR, or CR LF, reads as LF), while a character
/// reference (`&#13;`) survives as the character. The simulation's S3 and the unit tests hold
/// the body to these rules themselves rather than trust a stand-in's parser.
package enum S3XMLRules {
    /// The (key, version id) pairs S3 reads from a DeleteObjects body; nil when it refuses it.
    package static func deleteObjects(_ body: [UInt8]) -> [(key: String, versionID: String)]? {
        // Line-end normalization (XML 1.0 §2.11), on the raw bytes only.
        var bytes: [UInt8] = []
        var i = 0
        while i < body.count {
            if body[i] == 0x0D {
                bytes.append(0x0A)
                if i + 1 < body.count && body[i + 1] == 0x0A { i += 1 }
            } else {
                bytes.append(body[i])
            }
            i += 1
        }
        guard let text = String(validating: bytes, as: UTF8.self), text.unicodeScalars.allSatisfy(isChar) else {
            return nil
        }
        var rest = Array(text.unicodeScalars)[...]
        var out: [(String, String)] = []
        while let start = find("<Object>", in: rest) {
            rest = rest[(start + 8)...]
            guard let key = element("Key", in: &rest).flatMap(unescape),
                let version = element("VersionId", in: &rest).flatMap(unescape)
            else { return nil }
            out.append((key, version))
        }
        return out
    }

    package static func isChar(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0..<0x20, 0xFFFE, 0xFFFF: return false
        default: return true
        }
    }

    private static func find(_ needle: String, in text: ArraySlice<Unicode.Scalar>) -> Int? {
        let n = Array(needle.unicodeScalars)
        guard text.count >= n.count else { return nil }
        var i = text.startIndex
        while i + n.count <= text.endIndex {
            if Array(text[i..<(i + n.count)]) == n { return i }
            i += 1
        }
        return nil
    }

    private static func element(
        _ name: String, in text: inout ArraySlice<Unicode.Scalar>
    ) -> ArraySlice<
        Unicode.Scalar
    >? {
        guard let open = find("<\(name)>", in: text), let close = find("</\(name)>", in: text),
            open + name.count + 2 <= close
        else { return nil }
        let content = text[(open + name.count + 2)..<close]
        text = text[(close + name.count + 3)...]
        return content
    }

    /// Entity and character references resolved; nil for an unknown entity or a reference to a
    /// character XML does not allow.
    package static func unescape(_ text: ArraySlice<Unicode.Scalar>) -> String? {
        var out = String.UnicodeScalarView()
        var i = text.startIndex
        while i < text.endIndex {
            guard text[i] == "&" else {
                out.append(text[i])
                i += 1
                continue
            }
            guard let semi = text[i...].firstIndex(of: ";") else { return nil }
            var name = String.UnicodeScalarView()
            name.append(contentsOf: text[(i + 1)..<semi])
            switch String(name) {
            case "amp": out.append("&")
            case "lt": out.append("<")
            case "gt": out.append(">")
            case "quot": out.append("\"")
            case "apos": out.append("'")
            case let ref where ref.hasPrefix("#x"):
                guard let v = UInt32(ref.dropFirst(2), radix: 16), let s = Unicode.Scalar(v), isChar(s) else {
                    return nil
                }
                out.append(s)
            case let ref where ref.hasPrefix("#"):
                guard let v = UInt32(ref.dropFirst(), radix: 10), let s = Unicode.Scalar(v), isChar(s) else {
                    return nil
                }
                out.append(s)
            default: return nil
            }
            i = semi + 1
        }
        return String(out)
    }
}

import PlatformSupport

/// PEM blocks (RFC 7468): `-----BEGIN label-----`, base64 lines, `-----END label-----`. Text
/// outside blocks is ignored, as the RFC allows (bundles often carry a subject line before each
/// certificate); inside a block only the standard alphabet and padding are accepted, so each
/// block has exactly one DER reading.
enum PEM {
    struct Block {
        let label: String
        let der: [UInt8]
    }

    /// Every block of `text`, in order; nil when a block is unterminated, mislabelled at its end,
    /// nested, or its body is not strict base64.
    static func blocks(_ text: String) -> [Block]? {
        var blocks: [Block] = []
        var label: String?
        var body: [UInt8] = []
        for rawLine in Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = ASCII.trimmingSpaces(rawLine)
            if let begin = boundary(line, "BEGIN") {
                guard label == nil else { return nil }
                label = begin
                body = []
            } else if let end = boundary(line, "END") {
                guard let open = label, open == end, let der = Base64.decode(String(decoding: body, as: UTF8.self)),
                    !der.isEmpty
                else { return nil }
                blocks.append(Block(label: open, der: der))
                label = nil
            } else if label != nil {
                body += line
            }
        }
        return label == nil ? blocks : nil
    }

    /// The label of a `-----BEGIN label-----` (or END) line.
    private static func boundary(_ line: ArraySlice<UInt8>, _ word: String) -> String? {
        let prefix = Array("-----\(word) ".utf8)
        let suffix = Array("-----".utf8)
        guard line.count > prefix.count + suffix.count, line.starts(with: prefix), line.reversed().starts(with: suffix)
        else { return nil }
        let label = line.dropFirst(prefix.count).dropLast(suffix.count)
        guard label.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: " ") }) else { return nil }
        return String(decoding: label, as: UTF8.self)
    }
}

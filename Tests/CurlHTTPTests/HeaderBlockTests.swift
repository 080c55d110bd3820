import Testing

@testable import CurlHTTP

/// An answer's header lines as curl hands them to the header callback, kept as bytes.
@Suite struct HeaderBlockTests {
    func block(_ lines: [String]) -> HeaderBlock {
        var block = HeaderBlock()
        for line in lines { Array(line.utf8).withUnsafeBytes { block.append(line: $0) } }
        return block
    }

    func pairs(_ block: HeaderBlock) -> [String] {
        var out: [String] = []
        block.visit { name, value in
            out.append(String(decoding: name, as: UTF8.self) + "=" + String(decoding: value, as: UTF8.self))
        }
        return out
    }

    @Test func linesAsCurlDeliversThem() {
        let b = block([
            "HTTP/1.1 100 Continue\r\n", "X-Early: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "ETag: \"abc\"\r\n",
            "Empty:\r\n", "Spaced: \t v a l \r\n", "no colon here\r\n", "x-amz-version-id:v1\n", "\r\n",
        ])
        // The interim answer's headers are dropped; a line without a colon is skipped; the
        // whitespace before a value goes, the rest stays as sent.
        #expect(pairs(b) == ["ETag=\"abc\"", "Empty=", "Spaced=v a l ", "x-amz-version-id=v1"])
        let response = HTTPResponse(status: 200, headerBlock: b, body: [])
        #expect(response.header("Empty") == "" && response.header("x-early") == nil)
        #expect(response.header("X-AMZ-VERSION-ID") == "v1")
    }
}

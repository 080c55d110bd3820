import CurlHTTP
import TestSupport
import Testing

@testable import AWSClients

/// The byte-level forms issue 27 gave the object-key rule and the XML reader, against the plain
/// forms they replaced (docs/decisions/runtime-and-http.md, "Closer to the floor, round 2").
@Suite struct ByteLevelReadersTests {
    /// The key rule as written before, over Swift's `split` (segment checks only; the byte set and
    /// length are unchanged code).
    func plainSegmentProblem(_ key: String) -> String? {
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        for (n, segment) in segments.enumerated() {
            if segment.isEmpty && n != segments.count - 1 { return "object key has an empty segment (//)" }
            if segment == "." || segment == ".." { return "object key has a . or .. segment" }
        }
        return nil
    }

    @Test func objectKeyRuleAgreesWithTheSplitForm() {
        var random = SeededRandom(seed: 1024)
        let pieces = ["a", "b", ".", "..", "/", "//", "_", "-", "users", "x.y", "..."]
        for _ in 0..<20_000 {
            var key = ""
            for _ in 0..<(1 + random.below(8)) { key += random.pick(pieces) }
            let expected: String? = key.hasPrefix("/") ? "object key starts with /" : plainSegmentProblem(key)
            #expect(ObjectKeyRule.problem(key) == expected, "\(key)")
        }
    }

    @Test func xmlTextJoinsItsPiecesInOrder() throws {
        let xml = "<a>one &amp; <b>x</b>two<![CDATA[<3>]]><!-- c -->three&#x21;<c/>four</a>"
        let root = try #require(XMLReader.parse(Array(xml.utf8)))
        #expect(root.text == "one & two<3>three!four")
        #expect(root.children.map(\.name) == ["b", "c"] && root["b"] == "x")
        // Non-ASCII text, valid and not, whole or after an entity.
        #expect(XMLReader.parse(Array("<a>é&amp;€</a>".utf8))?.text == "é&€")
        #expect(XMLReader.parse([0x3C, 0x61, 0x3E, 0x26, 0x6C, 0x74, 0x3B, 0xC3, 0x3C, 0x2F, 0x61, 0x3E]) == nil)
    }

    @Test func xmlNamesCompareByBytes() throws {
        #expect(XMLReader.parse(Array("<s3:Key xmlns:s3=\"x\">k</s3:Key>".utf8))?.name == "Key")
        // The closing tag must be the same bytes: canonically equivalent is not the same name.
        #expect(XMLReader.parse(Array("<é>x</e\u{301}>".utf8)) == nil)
        #expect(XMLReader.parse(Array("<a:b>x</a:c>".utf8)) == nil)
        #expect(XMLReader.parse(Array("<a>x</ab>".utf8)) == nil)
    }

    @Test func answerHeadersAreReadInPlace() {
        let response = HTTPResponse(
            status: 200,
            headers: [
                ("ETag", "\"e1\""), ("x-amz-meta-Owner", "me"), ("X-AMZ-META-two", " 2"), ("etag", "second"),
                ("Content-Length", "0"),
            ])
        #expect(response.header("etag") == "\"e1\"" && response.header("ETAG") == "\"e1\"")
        #expect(response.header("e-tag") == nil && response.header("x-amz-meta") == nil)
        #expect(
            response.headers(namePrefix: "x-amz-meta-").map { "\($0.suffix)=\($0.value)" } == ["Owner=me", "two=2"])
        #expect(
            response.headers.map(\.name) == ["ETag", "x-amz-meta-Owner", "X-AMZ-META-two", "etag", "Content-Length"])
    }
}

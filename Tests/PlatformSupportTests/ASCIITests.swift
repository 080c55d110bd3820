import Testing

@testable import PlatformSupport

@Suite struct ASCIITests {
    @Test func hexDigitValues() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        #expect(
            digits.map { ASCII.hexDigitValue($0) } == [
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 10, 11, 12, 13, 14, 15,
            ])
        for other in Array("gG/:@`-x ".utf8) + [0, 0x7F, 0xC3] {
            #expect(ASCII.hexDigitValue(other) == nil, "\(other)")
        }
    }

    @Test func classes() {
        #expect(ASCII.isVisible(UInt8(ascii: "!")) && ASCII.isVisible(UInt8(ascii: "~")))
        #expect(
            !ASCII.isVisible(UInt8(ascii: " ")) && !ASCII.isVisible(0x7F) && !ASCII.isVisible(0x80)
                && !ASCII.isVisible(0x09))
        #expect(ASCII.lowercased(UInt8(ascii: "Q")) == UInt8(ascii: "q"))
        #expect(ASCII.lowercased(UInt8(ascii: "[")) == UInt8(ascii: "["))
        #expect(ASCII.lowercased(0xC3) == 0xC3)
    }

    /// The one trimmer: ASCII whitespace at the ends only; inner runs, other bytes and Unicode
    /// spaces stay (SigV4 collapses inner runs itself; the account store and the verifier do not).
    @Test(arguments: [
        ("", ""), ("   ", ""), ("a", "a"), (" a ", "a"), ("\t\n\r\u{0B}\u{0C} a b \t", "a b"), ("a  b", "a  b"),
        ("\u{00A0}a\u{00A0}", "\u{00A0}a\u{00A0}"), (" é ", "é"), ("x\n", "x"),
    ])
    func trimmingASCIISpaces(_ input: String, _ expected: String) {
        #expect(input.trimmingASCIISpaces() == expected)
        #expect(String(decoding: ASCII.trimmingSpaces(Array(input.utf8)), as: UTF8.self) == expected)
    }

    @Test func lowercasedASCII() {
        #expect("Content-Type".lowercasedASCII() == "content-type")
        #expect("x-amz-date".lowercasedASCII() == "x-amz-date")
        #expect("ÉTAG-Ä".lowercasedASCII() == "Étag-Ä", "non-ASCII letters are left alone")
    }
}

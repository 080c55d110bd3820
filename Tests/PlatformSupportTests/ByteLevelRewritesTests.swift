import TestSupport
import Testing

@testable import PlatformSupport

/// The byte-level forms issue 27 gave the hot paths (docs/decisions/runtime-and-http.md, "Closer to
/// the floor, round 2") against the plain forms they replaced, kept here as the reference, over
/// seeded random inputs.
@Suite struct ByteLevelRewritesTests {
    @Test func percentEncodingKeepsTheUnreservedSetAndNothingElse() {
        for keepingSlash in [false, true] {
            for spaceAsPlus in [false, true] {
                for b in UInt8.min...UInt8.max {
                    var out: [UInt8] = []
                    PercentEncoding.append(
                        String(decoding: [b], as: UTF8.self), keepingSlash: keepingSlash, spaceAsPlus: spaceAsPlus,
                        to: &out)
                    // A lone byte ≥ 0x80 is not UTF-8 (it becomes U+FFFD): check ASCII bytes one by one.
                    guard b < 0x80 else { continue }
                    let kept =
                        ASCII.isAlphanumeric(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
                        || b == UInt8(ascii: ".") || b == UInt8(ascii: "~") || (keepingSlash && b == UInt8(ascii: "/"))
                    let expected: [UInt8] =
                        kept
                        ? [b]
                        : spaceAsPlus && b == UInt8(ascii: " ")
                            ? [UInt8(ascii: "+")]
                            : Array("%\(b < 16 ? "0" : "")\(String(b, radix: 16, uppercase: true))".utf8)
                    #expect(out == expected, "byte \(b) slash \(keepingSlash) plus \(spaceAsPlus)")
                }
            }
        }
        var out: [UInt8] = []
        PercentEncoding.append("é", to: &out)
        #expect(out == Array("%C3%A9".utf8))
    }

    /// `format` as it was written before it wrote digits into one buffer.
    func paddedFormat(_ ms: Int64, fractional: Bool) -> String {
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
        }
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let millis = Int(ms - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (y, m, d) = ISO8601.civil(fromDays: days)
        var out = pad(Int(y), 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        out += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fractional { out += "." + pad(millis, 3) }
        return out + "Z"
    }

    @Test func iso8601FormatsAsBeforeAndRoundTrips() {
        var random = SeededRandom(seed: 27)
        let span = UInt64(ISO8601.latestMilliseconds - ISO8601.earliestMilliseconds + 1)
        for n in 0..<5_000 {
            let ms =
                n < 3
                ? [ISO8601.earliestMilliseconds, 0, ISO8601.latestMilliseconds][n]
                : ISO8601.earliestMilliseconds + Int64(random.next() % span)
            for fractional in [false, true] {
                let text = ISO8601.format(milliseconds: ms, fractional: fractional)
                #expect(text == paddedFormat(ms, fractional: fractional), "\(ms)")
                #expect(ISO8601.parse(text) == (fractional ? ms : ms - ((ms % 1000) + 1000) % 1000), "\(text)")
            }
        }
        let (dateTime, date) = ISO8601.amzDate(milliseconds: 1_795_688_654_321)
        #expect(dateTime == "20261126T102414Z" && date == "20261126")
    }

    @Test func uuidTextAndBase64MatchTheirPlainForms() {
        var random = SeededRandom(seed: 2027)
        for _ in 0..<500 {
            let bytes = random.bytes(16)
            let hex = Array(Hex.encode(bytes).utf8)
            let plain = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(decoding: hex[$0], as: UTF8.self) }
                .joined(separator: "-")
            #expect(UUIDText.format(bytes) == plain)
            #expect(UUIDText.format(bytes[...]) == plain)
            #expect(UUIDText.format(AnyCollection(bytes)) == plain)
            #expect(UUIDText.isCanonical(plain))
            let data = random.bytes(random.below(70))
            for (encoded, decoded) in [
                (Base64.encode(data), Base64.decode(Base64.encode(data))),
                (Base64.urlEncode(data), Base64.urlDecode(Base64.urlEncode(data))),
            ] {
                #expect(decoded == data, "\(encoded)")
            }
            #expect(Base64.encode(data).utf8.count == (data.count + 2) / 3 * 4)
            #expect(Base64.urlEncode(data).utf8.count == (data.count * 4 + 2) / 3)
        }
    }

    @Test func headerNamesCompareIgnoringASCIICaseOnly() {
        #expect("X-Amz-Date".equalsIgnoringASCIICase("x-amz-date"))
        #expect(!"X-Amz-Date".equalsIgnoringASCIICase("x-amz-dat"))
        #expect(!"K".equalsIgnoringASCIICase("\u{212A}"))  // KELVIN SIGN is not ASCII
        #expect(!"é".equalsIgnoringASCIICase("É"))
    }
}

import Testing

@testable import PlatformSupport

@Suite struct ISO8601Tests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),  // leap day of a 400-year leap year
        (951_868_799_999, "2000-02-29T23:59:59.999Z"),
        (1_709_164_800_000, "2024-02-29T00:00:00.000Z"),
        (4_107_456_000_000, "2100-02-28T00:00:00.000Z"),  // 2100 is not a leap year...
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),  // ...so March follows Feb 28
        (1_795_347_304_937, "2026-11-22T11:35:04.937Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_000, "9999-12-31T23:59:59.000Z"),
    ])
    func formatAndParseAgree(_ millis: Int64, _ text: String) {
        #expect(ISO8601.format(milliseconds: millis, fractional: true) == text)
        #expect(ISO8601.parse(text) == millis)
    }

    @Test func formatWithoutFraction() {
        #expect(ISO8601.format(milliseconds: 1_795_347_304_937) == "2026-11-22T11:35:04Z")
        #expect(ISO8601.format(seconds: 86_400) == "1970-01-02T00:00:00Z")
        let amz = ISO8601.amzDate(milliseconds: 1_440_938_160_000)
        #expect(amz.dateTime == "20150830T123600Z" && amz.date == "20150830")
    }

    @Test func parsesOffsetsFractionsAndLowercase() {
        let base: Int64 = 1_795_347_304_000  // 2026-11-22T11:35:04Z
        #expect(ISO8601.parse("2026-11-22T11:35:04Z") == base)
        #expect(ISO8601.parse("2026-11-22T13:35:04+02:00") == base)
        #expect(ISO8601.parse("2026-11-22T06:05:04-05:30") == base)
        #expect(ISO8601.parse("2026-11-23T01:35:04+14:00") == base)
        #expect(ISO8601.parse("2026-11-22T11:35:04+00:00") == base)
        #expect(ISO8601.parse("2026-11-22t11:35:04z") == base)
        #expect(ISO8601.parse("2026-11-22T11:35:04.5Z") == base + 500)
        #expect(ISO8601.parse("2026-11-22T11:35:04.05Z") == base + 50)
        #expect(ISO8601.parse("2026-11-22T11:35:04.123456789Z") == base + 123)  // extra digits truncated
        #expect(ISO8601.parse("2026-11-22T11:35:04.1234+01:00") == base + 123 - 3_600_000)
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22T11:35:04", "2026-11-22 11:35:04Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
        "2026-11-00T00:00:00Z", "2026-11-32T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T11:60:00Z",
        "2026-11-22T11:35:62Z",
        "2026-11-22T11:35:04.Z", "2026-11-22T11:35:04+0200", "2026-11-22T11:35:04+02", "2026-11-22T11:35:04Zjunk",
        "2026-11-22T11:35:04+24:00", "2026-11-22T11:35:04+02:60",
        "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-02-30T00:00:00Z", "2026-04-31T00:00:00Z",
        "+2026-11-22T11:35:04Z", "2026-1-22T11:35:04Z", "２０２６-11-22T11:35:04Z",
    ])
    func refuses(_ text: String) {
        #expect(ISO8601.parse(text) == nil, "\(text)")
    }

    /// Found by fuzzing (Tests/fuzz/iso8601/regressions): an offset that moves a time out of the
    /// years 0000-9999, which `format` could not write back in a form `parse` reads.
    @Test func refusesTimesOutsideTheFourDigitYears() {
        #expect(ISO8601.parse("0000-01-01T01:09:50+05:30") == nil)
        #expect(ISO8601.parse("9999-12-31T23:00:00-01:00") == nil)
        #expect(ISO8601.parse("0000-01-01T05:30:00+05:30") == ISO8601.earliestMilliseconds)
        #expect(ISO8601.parse("9999-12-31T23:59:59.999Z") == ISO8601.latestMilliseconds)
        #expect(ISO8601.format(milliseconds: ISO8601.earliestMilliseconds) == "0000-01-01T00:00:00Z")
    }

    @Test func leapDaysParse() {
        #expect(ISO8601.parse("2024-02-29T12:00:00Z") != nil)
        #expect(ISO8601.parse("2000-02-29T12:00:00Z") != nil)
    }

    @Test func everyDayOfFourCenturiesRoundTrips() {
        var day: Int64 = ISO8601.days(fromCivil: 1900, 1, 1)
        let end = ISO8601.days(fromCivil: 2300, 1, 1)
        while day < end {
            let (y, m, d) = ISO8601.civil(fromDays: day)
            #expect(ISO8601.days(fromCivil: y, m, d) == day)
            day += 1
        }
        #expect(end - ISO8601.days(fromCivil: 1900, 1, 1) == 146_097)  // days in 400 Gregorian years
    }
}

@Suite struct Base64Tests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ plain: String, _ encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        let url = encoded.replacingEquals()
        #expect(Base64.urlEncode(Array(plain.utf8)) == url)
        #expect(Base64.urlDecode(url) == Array(plain.utf8))
    }

    @Test func alphabetsDiffer() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64.encode(bytes) == "+/+/")
        #expect(Base64.urlEncode(bytes) == "-_-_")
        #expect(Base64.decode("-_-_") == nil)
        #expect(Base64.urlDecode("+/+/") == nil)
        #expect(Base64.urlDecode(Substring("x-_-_y").dropFirst().dropLast()) == bytes)
    }

    @Test(arguments: [
        "Zg", "Zg=", "Zg===", "Z===", "====", "Zm9v\n", " Zm9v", "Zm 9v", "Zm9v=", "Zh==", "Zm9=", "Zm8=Zm8=", "Z=g=",
        "Zm9v!A==",
    ])
    func standardDecodeIsStrict(_ text: String) {
        #expect(Base64.decode(text) == nil, "\(text)")
    }

    @Test(arguments: ["Zg==", "Zm8=", "Z", "Zh", "Zm9", "Zm9v\n", "Zm 9v", "Zm9v+", "Zm9v/", "Zm9vY"])
    func urlDecodeIsStrict(_ text: String) {
        #expect(Base64.urlDecode(text) == nil, "\(text)")
    }

    @Test func roundTripsEveryLength() {
        var bytes: [UInt8] = []
        for n in 0..<70 {
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
            #expect(Base64.urlDecode(Base64.urlEncode(bytes)) == bytes)
            bytes.append(UInt8(truncatingIfNeeded: n &* 37 &+ 11))
        }
    }
}

@Suite struct HexTests {
    @Test func encodeDecode() {
        #expect(Hex.encode([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.decode("000fa5ff") == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(Hex.decode("000FA5FF") == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(Hex.decode("") == [])
        for bad in ["0", "abc", "0g", "zz", " 00", "00 ", "0x00", "é0"] { #expect(Hex.decode(bad) == nil, "\(bad)") }
        let all = (0...255).map { UInt8($0) }
        #expect(Hex.decode(Hex.encode(all)) == all)
    }
}

@Suite struct UUIDTextTests {
    @Test func canonicalIsLowercase8_4_4_4_12() {
        let uuid = UUIDText.format([UInt8](repeating: 0xab, count: 16))
        #expect(uuid == "abababab-abab-abab-abab-abababababab" && UUIDText.isCanonical(uuid))
        for bad in [
            "ABABABAB-ABAB-ABAB-ABAB-ABABABABABAB", "abababab-abab-abab-abab-ababababababa",
            "abababab-abab-abab-abab-abababababa", "ababababaabab-abab-abab-abababababab",
            "abababab-abab-abab-abab-abababababag", "", "../../../../../../../../../../../..",
        ] {
            #expect(!UUIDText.isCanonical(bad), "\(bad)")
        }
    }
}

@Suite struct RandomAndEnvironment {
    @Test func uuidV4Shape() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let u = SecureRandom.uuidV4()
            let parts = u.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
            #expect(u.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == 45 })
            #expect(parts[2].first == "4")
            #expect("89ab".contains(parts[3].first!))
            seen.insert(u)
        }
        #expect(seen.count == 200)
    }

    @Test func bytesAndUniform() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(13).count == 13)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
        for _ in 0..<100 { #expect(SecureRandom.uniform(3) < 3) }
        #expect(SecureRandom.uniform(1) == 0)
    }

    @Test func environment() {
        Environment.set("PLATFORM_SUPPORT_TEST_VAR", "v=1")
        #expect(Environment.get("PLATFORM_SUPPORT_TEST_VAR") == "v=1")
        Environment.set("PLATFORM_SUPPORT_TEST_VAR", "")
        #expect(Environment.get("PLATFORM_SUPPORT_TEST_VAR") == "")
        #expect(Environment.nonEmpty("PLATFORM_SUPPORT_TEST_VAR") == nil)
        Environment.unset("PLATFORM_SUPPORT_TEST_VAR")
        #expect(Environment.get("PLATFORM_SUPPORT_TEST_VAR") == nil)
    }

    @Test func clocks() {
        let a = Clock.monotonicNanoseconds()
        Clock.sleep(milliseconds: 5)
        #expect(Clock.monotonicNanoseconds() - a >= 5_000_000)
        #expect(Clock.nowMilliseconds() > 1_700_000_000_000)
        let seconds = Clock.nowSeconds(), milliseconds = Clock.nowMilliseconds()  // in this order
        #expect(milliseconds / 1000 == seconds || milliseconds / 1000 == seconds + 1)
    }
}

private extension String {
    func replacingEquals() -> String { String(self.filter { $0 != "=" }) }
}

@Suite struct GlibcCompatTests {
    @Test func hypotfMatchesTheDefinition() {
        #expect(_platformSupportHypotf(3, 4) == 5)
        #expect(_platformSupportHypotf(-3, 4) == 5)
        #expect(_platformSupportHypotf(0, 0) == 0)
        #expect(_platformSupportHypotf(.greatestFiniteMagnitude, .greatestFiniteMagnitude) == .infinity)
        #expect(_platformSupportHypotf(3e38, 1) == 3e38)  // no overflow in the intermediate
        #expect(_platformSupportHypotf(1e-40, 1e-40) > 0)  // subnormals do not flush to zero
        #expect(_platformSupportHypotf(.infinity, .nan) == .infinity)
        #expect(_platformSupportHypotf(.nan, 1).isNaN)
    }
}

import Testing

@testable import StrictJSON

private func parse(_ text: String) throws(JSONError) -> JSONValue { try JSONParser.parse(text) }
private func parseBytes(_ bytes: [UInt8]) throws(JSONError) -> JSONValue { try JSONParser.parse(bytes) }

private func reason(_ bytes: [UInt8]) -> JSONError.Reason? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch { return error.reason }
}
private func reason(_ text: String) -> JSONError.Reason? { reason(Array(text.utf8)) }

@Suite struct Conformance {
    // RFC 8259 texts that must be accepted (JSONTestSuite "y_" style cases).
    @Test(arguments: [
        "{}", "[]", "0", "-0", "1", "-1", "1.5", "1e10", "1E+2", "1e-2", "-0.0e0", "123456789012345678901234567890",
        "true", "false", "null", "\"\"", "\" \"", "[[]]", "[1,2,3]", " \t\r\n[ 1 , { \"a\" : null } ]\n ",
        "{\"a\":{\"b\":{\"c\":[true,false,null]}}}", "\"\\u0000\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\"\\uD834\\uDD1E\"", "\"\u{1F600}\"", "\"é\"", "[\"\u{7F}\"]", "{\"\":0}",
    ])
    func accepts(_ text: String) throws {
        _ = try parse(text)
    }

    @Test(arguments: [
        ("", JSONError.Reason.unexpectedEnd), (" ", .unexpectedEnd), ("[", .unexpectedEnd), ("{", .unexpectedEnd),
        ("[1,]", .unexpectedCharacter), ("[,1]", .unexpectedCharacter), ("{\"a\":1,}", .unexpectedCharacter),
        ("{a:1}", .unexpectedCharacter), ("{'a':1}", .unexpectedCharacter), ("{\"a\" 1}", .unexpectedCharacter),
        ("[1 2]", .unexpectedCharacter), ("tru", .unexpectedEnd), ("nul", .unexpectedEnd),
        ("True", .unexpectedCharacter),
        ("NaN", .unexpectedCharacter), ("Infinity", .unexpectedCharacter), ("-Infinity", .invalidNumber),
        ("01", .invalidNumber), ("-01", .invalidNumber), ("1.", .invalidNumber), (".1", .unexpectedCharacter),
        ("1e", .invalidNumber), ("1e+", .invalidNumber), ("+1", .unexpectedCharacter), ("-", .invalidNumber),
        ("0x10", .trailingData), ("1 2", .trailingData), ("{} {}", .trailingData), ("[]]", .trailingData),
        ("\"abc", .unexpectedEnd), ("\"a\nb\"", .invalidString), ("\"a\tb\"", .invalidString),
        ("\"\\x\"", .invalidEscape), ("[\"\\u12\"]", .invalidEscape), ("\"\\u12\"", .unexpectedEnd),
        ("\"\\u12G4\"", .invalidEscape), ("\"\\'\"", .invalidEscape),
        ("/* c */ 1", .unexpectedCharacter), ("[1] // c", .trailingData),
    ])
    func refuses(_ text: String, _ expected: JSONError.Reason) {
        #expect(reason(text) == expected, "\(text)")
    }

    @Test func errorOffsetPointsAtTheProblem() {
        do {
            _ = try parse("[1, 2, x]")
            Issue.record("accepted")
        } catch {
            #expect(error.offset == 7)
            #expect(error.description == "unexpected character at byte 7")
        }
    }

    @Test func valuesComeOutAsWritten() throws {
        let v = try parse(#"{"s":"a\"b","n":-12.50e3,"t":true,"f":false,"z":null,"a":[1,"x"]}"#)
        #expect(v["s"] == .string("a\"b"))
        #expect(v["n"] == .number("-12.50e3"))
        #expect(v["t"]?.boolValue == true && v["f"]?.boolValue == false)
        #expect(v["z"]?.isNull == true)
        #expect(v["a"]?.arrayValue == [.number("1"), .string("x")])
        #expect(v.objectValue?.keys == ["s", "n", "t", "f", "z", "a"])
        #expect(v["missing"] == nil)
        #expect(JSONValue.string("x")["k"] == nil)
    }
}

@Suite struct DuplicatesAndStrings {
    @Test func duplicateKeysAreRefusedAtAnyDepth() {
        #expect(reason(#"{"a":1,"a":2}"#) == .duplicateKey)
        #expect(reason(#"{"a":1,"b":{"c":1,"c":1}}"#) == .duplicateKey)
        #expect(reason(#"[{"x":1},{"x":1,"y":2,"x":3}]"#) == .duplicateKey)
        // Escapes are decoded before the comparison: "\u0061" is "a".
        #expect(reason(#"{"a":1,"\u0061":2}"#) == .duplicateKey)
        do { _ = try parse(#"{"a":1, "a":2}"#) } catch { #expect(error.offset == 8) }
    }

    @Test func sameKeyInSiblingObjectsIsFine() throws {
        _ = try parse(#"[{"a":1},{"a":2}]"#)
        _ = try parse(#"{"a":{"a":{"a":1}}}"#)
    }

    @Test func keysAreComparedAsCodePointsNotCanonicalEquivalence() throws {
        // RFC 8259 §8.3: names are compared code unit by code unit. "é" precomposed and
        // "e" + combining acute are different names (Swift's == would call them equal).
        let v = try parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(v.objectValue?.count == 2)
        #expect(v["\u{E9}"] == .number("1"))
        #expect(v["e\u{301}"] == .number("2"))
        // KELVIN SIGN is canonically equivalent to "K", but is not the key "K".
        let k = try parse("{\"\u{212A}\":1}")
        #expect(k["K"] == nil)
    }

    @Test func surrogatePairsDecodeAndLoneSurrogatesAreRefused() throws {
        #expect(try parse(#""\uD83D\uDE00""#) == .string("\u{1F600}"))
        #expect(try parse(#""\u00e9\u4e2d""#) == .string("é中"))
        #expect(reason(#""\uD83D""#) == .invalidEscape)  // lone high
        #expect(reason(#""\uDE00""#) == .invalidEscape)  // lone low
        #expect(reason(#""\uD83Dx""#) == .invalidEscape)  // high then text
        #expect(reason(#""\uD83D\u0041""#) == .invalidEscape)  // high then non-low
        #expect(reason(#""\uD83D\uD83D""#) == .invalidEscape)  // high then high
        #expect(reason(#""\uDE00\uD83D""#) == .invalidEscape)  // reversed
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid in UTF-8
            [0x22, 0xC3, 0x22],  // truncated 2-byte sequence
            [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0x80, 0x22],  // lone continuation byte
            [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D],  // in a key
        ] as [[UInt8]])
    func invalidUTF8IsRefused(_ bytes: [UInt8]) {
        #expect(reason(bytes) == .invalidUTF8)
    }

    @Test func invalidUTF8OutsideStringsIsRefused() {
        #expect(reason([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) == .unexpectedCharacter)  // a BOM is not JSON whitespace
        #expect(reason([0x5B, 0xFF, 0x5D]) == .unexpectedCharacter)
    }
}

@Suite struct DepthAndNumbers {
    @Test func depthIsBounded() throws {
        let ok = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        _ = try parse(ok)
        let deep =
            String(repeating: "[", count: JSONParser.maxDepth + 1)
            + String(repeating: "]", count: JSONParser.maxDepth + 1)
        #expect(reason(deep) == .tooDeep)
        let deepObjects =
            String(repeating: "{\"a\":", count: JSONParser.maxDepth + 1) + "1"
            + String(repeating: "}", count: JSONParser.maxDepth + 1)
        #expect(reason(deepObjects) == .tooDeep)
        // A hostile depth far beyond the bound fails cleanly (no stack overflow).
        #expect(reason(String(repeating: "[", count: 100_000)) == .tooDeep)
    }

    @Test func integersAreExact() throws {
        #expect(try parse("9223372036854775807").int64Value == Int64.max)
        #expect(try parse("-9223372036854775808").int64Value == Int64.min)
        #expect(try parse("9223372036854775808").int64Value == nil)
        #expect(try parse("1700000000").int64Value == 1_700_000_000)
        #expect(try parse("1700000000.0").int64Value == 1_700_000_000)
        #expect(try parse("1.7e9").int64Value == 1_700_000_000)
        #expect(try parse("1.5").int64Value == nil)
        #expect(try parse("1e400").int64Value == nil)
        #expect(try parse("-0").int64Value == 0)
        #expect(JSONValue.string("1").int64Value == nil)
        #expect(try parse("2.5e-1").doubleValue == 0.25)
    }

    @Test func numberTextIsKeptVerbatim() throws {
        for text in ["1.000", "1E5", "-0.0", "12345678901234567890123"] {
            #expect(try parse(text) == .number(text))
            #expect(try parse(text).serializedString() == text)
        }
    }
}

@Suite struct Serializer {
    @Test func escapesWhatRFC8259Requires() {
        let s = JSONValue.string("q\"b\\n\nr\rt\tc\u{01}\u{1F}d/é\u{7F}\u{2028}")
        #expect(s.serializedString() == #""q\"b\\n\nr\rt\tc\u0001\u001fd/é"# + "\u{7F}\u{2028}\"")
    }

    @Test func compactAndOrdered() {
        let v: JSONValue = ["b": 1, "a": [true, nil, "x"], "c": ["k": .number("1.50")]]
        #expect(v.serializedString() == #"{"b":1,"a":[true,null,"x"],"c":{"k":1.50}}"#)
        #expect(JSONValue.int(Int64(-5)).serializedString() == "-5")
        #expect(JSONValue.array([]).serializedString() == "[]")
        #expect(JSONValue.object(JSONObject()).serializedString() == "{}")
    }

    @Test(arguments: [
        #"{"a":[1,2.5e-3,-0,{"b":null}],"c":"\u0000\u001f\"\\","d":"😀é中","e":true,"f":false,"":{}}"#,
        #"[[[[[]]]],{},"",0]"#,
        #""\uD834\uDD1E""#,
    ])
    func roundTrip(_ text: String) throws {
        let v = try parse(text)
        let again = try parseBytes(v.serialized())
        #expect(again == v)
        #expect(again.serialized() == v.serialized())
    }

    @Test func objectSubscriptReplacesAndRemoves() {
        var o = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(o.keys == ["a", "b"] && o["a"] == .number("3"))
        o["b"] = nil
        o["c"] = "x"
        #expect(o.keys == ["a", "c"])
        #expect(JSONValue.object(o).serializedString() == #"{"a":3,"c":"x"}"#)
    }
}

import CurlHTTP
import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import TokenVerification

/// JWKS parsing, Cache-Control handling and the subject rule, without the network.
struct KeySetParsingTests {
    /// A 2048-bit modulus (Wycheproof's RSA test key), base64url.
    static let n2048 =
        "orRRoH0KpfluRVZxUTVQUUqKW0YuvvcXCU-h_ugiJOY3-XRtP3yv0xh42AMltu9aFwD2WQO0aUKeidbqyIRQl7WrOTGJ25JRLtincRoSU_rNIPecFegkfz0-QuRuSMmOJUov6XZTE6A-_48X4aApOXofomqNzib0kO2BKZYV2YFMItphBCjgnH2WWFlCZvXAIdD87KCNlFoSvoLeTR7Oa0wDFFtdNJXU7VQR64eNrwX9evw-Ca2g8RJkIvWQl1oZaYFvSGmLy7obTZyuedRg2Pn4Xnl1AF2bwixOWsD3waRdElaaYoB9O5oC5aUw53MGb0U9H1tMLpz3ggKD90K51Q"
    /// An odd 1024-bit number with its top bit set (only its size matters here).
    static let n1024 = Base64.urlEncode([0xc1] + [UInt8](repeating: 0xab, count: 126) + [0x01])

    static func jwk(
        _ kid: String, n: String = n2048, e: String = "AQAB", extra: [(String, JSONValue)] = [], drop: [String] = []
    ) -> JSONValue {
        var o = JSONObject([
            ("kty", "RSA"), ("kid", .string(kid)), ("use", "sig"), ("alg", "RS256"), ("n", .string(n)),
            ("e", .string(e)),
        ])
        for (k, v) in extra { o[k] = v }
        for k in drop { o[k] = nil as JSONValue? }
        return .object(o)
    }

    static func parse(_ keys: [JSONValue]) -> ParsedKeySet? {
        ParsedKeySet.parse(JSONValue.object(JSONObject([("keys", .array(keys))])).serialized())
    }

    @Test func usableKeysAreKept() throws {
        let set = try #require(Self.parse([Self.jwk("a"), Self.jwk("b", drop: ["use", "alg"])]))
        #expect(set.keys.keys.sorted() == ["a", "b"])
        #expect(set.unusable.isEmpty)
    }

    @Test func unusableKeysAreRecordedWithTheReason() throws {
        let set = try #require(
            Self.parse([
                Self.jwk("ok"),
                Self.jwk("ec", extra: [("kty", "EC")]),
                Self.jwk("enc", extra: [("use", "enc")]),
                Self.jwk("rs512", extra: [("alg", "RS512")]),
                Self.jwk("small", n: Self.n1024),
                Self.jwk("padded", n: Self.n2048 + "="),
                Self.jwk("std-alphabet", n: Self.n2048.replacingOccurrences(of: "-", with: "+")),
                Self.jwk("e1", e: "AQ"),
                Self.jwk("even-e", e: "AQAC"),
                // No kid: unreachable, skipped.
                .object(JSONObject([("kty", "RSA"), ("n", .string(Self.n2048)), ("e", "AQAB")])),
                "not an object",
            ]))
        #expect(set.keys.keys.sorted() == ["ok"])
        #expect(set.unusable["ec"] == "it is not an RSA key")
        #expect(set.unusable["enc"] == "it is not a signing key")
        #expect(set.unusable["rs512"] == "it is not an RS256 key")
        #expect(set.unusable["small"] == "its RSA key is smaller than 2048 bits")
        #expect(set.unusable["padded"] == "its modulus or exponent is not canonical base64url")
        #expect(set.unusable["std-alphabet"] == "its modulus or exponent is not canonical base64url")
        #expect(set.unusable["e1"] == "its RSA modulus or exponent is invalid")
        #expect(set.unusable["even-e"] == "its RSA modulus or exponent is invalid")
        #expect(set.unusable.count == 8)
    }

    @Test func duplicateKidIsAmbiguousAndUnused() throws {
        let set = try #require(Self.parse([Self.jwk("dup"), Self.jwk("dup"), Self.jwk("other")]))
        #expect(set.keys["dup"] == nil)
        #expect(set.unusable["dup"] == "its key id appears twice in the JWKS")
        #expect(set.keys["other"] != nil)
    }

    @Test func documentsThatAreNotAJWKSAreRefused() {
        for text in [#"{"keys":{}}"#, #"{"kid":"a"}"#, "[]", "", #"{"keys":[],"keys":[]}"#, "not json"] {
            #expect(ParsedKeySet.parse(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(ParsedKeySet.parse(Array(#"{"keys":[]}"#.utf8))?.keys.isEmpty == true)
    }

    @Test func freshnessFromCacheControl() {
        func life(_ headers: [(String, String)]) -> Int64 {
            freshnessLifetime(HTTPResponse(status: 200, headers: headers.map { (name: $0.0, value: $0.1) }))
        }
        #expect(life([]) == 3600)
        #expect(life([("Cache-Control", "public, max-age=19800, must-revalidate, no-transform")]) == 19800)
        #expect(life([("cache-control", "Public, Max-Age=600")]) == 600)
        #expect(life([("Cache-Control", "max-age=\"900\"")]) == 900)
        #expect(life([("Cache-Control", "max-age=600, max-age=300")]) == 300)
        #expect(life([("Cache-Control", "max-age=999999999")]) == 86400)
        #expect(life([("Cache-Control", "max-age=0")]) == 60)
        #expect(life([("Cache-Control", "no-store")]) == 60)
        #expect(life([("Cache-Control", "no-cache, max-age=3000")]) == 60)
        #expect(life([("Cache-Control", "max-age=-5")]) == 3600)
        #expect(life([("Cache-Control", "max-age=abc")]) == 3600)
        #expect(life([("Cache-Control", "s-maxage=100")]) == 3600)
        #expect(life([("Cache-Control", "max-age=20000"), ("Age", "5000")]) == 15000)
        #expect(life([("Cache-Control", "max-age=2000"), ("Age", "5000")]) == 60)
        #expect(life([("Cache-Control", "max-age=2000"), ("Age", "junk")]) == 2000)
    }

    @Test func subjectPattern() {
        for ok in [
            "a", "001234.5f1e2d3c.1234", "109876543210987654321", "...", "a-b_c.d", String(repeating: "x", count: 255),
        ] {
            #expect(ClaimRules.isValidSubject(ok), "\(ok)")
        }
        for bad in [
            "", ".", "..", "a/b", "../x", "a\\b", "a b", "é", "a\n", String(repeating: "x", count: 256), "a:b", "a%2F",
        ] {
            #expect(!ClaimRules.isValidSubject(bad), "\(bad)")
        }
    }
}

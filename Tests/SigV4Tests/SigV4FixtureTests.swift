import CryptoPrimitives
import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import SigV4

/// One botocore-signed request from Fixtures/sigv4_cases.json (see generate_sigv4_fixtures.py).
struct SigV4Case: CustomTestStringConvertible, Sendable {
    let name: String
    let json: JSONValue
    var testDescription: String { name }

    static func all() throws -> [SigV4Case] {
        let url = try #require(
            Bundle.module.url(forResource: "sigv4_cases", withExtension: "json", subdirectory: "Fixtures"))
        let doc = try JSONParser.parse(Array(try Data(contentsOf: url)))
        let cases = try #require(doc["cases"]?.arrayValue)
        return cases.map { SigV4Case(name: $0["name"]?.stringValue ?? "?", json: $0) }
    }

    func string(_ key: String) -> String? { json[key]?.stringValue }
    func pairs(_ key: String) -> [(name: String, value: String)] {
        (json[key]?.arrayValue ?? []).map { ($0.arrayValue![0].stringValue!, $0.arrayValue![1].stringValue!) }
    }

    /// The request as our S3/STS clients would build it: for S3 the raw key goes through our
    /// own path encoder (the fixture's wire path is botocore's encoding, compared separately).
    func request() throws -> SignableRequest {
        var path = try #require(string("wirePath"))
        if string("service") == "s3", let key = string("key") {
            let bucket = string("bucketInPath").map { "/" + $0 } ?? ""
            path = bucket + "/" + SigV4.encodePath(key)
        }
        let bodyText = try #require(string("bodyBase64"))
        let body = try #require(Base64.decode(bodyText))
        return SignableRequest(
            method: try #require(string("method")), host: try #require(string("host")), path: path,
            query: pairs("query"), headers: pairs("headers"), body: body)
    }

    var credentials: SigningCredentials {
        SigningCredentials(
            accessKeyID: string("accessKeyID")!, secretAccessKey: string("secretAccessKey")!,
            sessionToken: string("sessionToken"))
    }
}

@Suite struct SigV4FixtureTests {
    @Test func fixturesArePresentAndCoverTheCases() throws {
        let cases = try SigV4Case.all()
        #expect(cases.count >= 15)
        let names = Set(cases.map(\.name))
        for wanted in [
            "s3-put-spaces-metadata", "s3-key-plus-equals-amp", "s3-key-tilde-percent", "s3-key-unicode",
            "s3-key-double-slash-dots", "s3-list-query", "s3-put-if-match-session-token", "sts-assume-role",
            "sts-get-normalized-path",
        ] {
            #expect(names.contains(wanted), "missing fixture \(wanted)")
        }
    }

    @Test(arguments: try SigV4Case.all())
    func matchesBotocoreByteForByte(_ fixture: SigV4Case) throws {
        let request = try fixture.request()
        if fixture.string("service") == "s3" {
            #expect(request.path == fixture.string("wirePath"), "our key encoding differs from botocore's")
        }
        var signer = SigV4Signer(service: fixture.string("service")!, region: fixture.string("region")!)
        let dateMs = try #require(fixture.json["dateMilliseconds"]?.int64Value)
        let signed = signer.sign(request, credentials: fixture.credentials, dateMilliseconds: dateMs)
        let expected = try #require(fixture.json["expected"])
        #expect(signed.canonicalRequest == expected["canonicalRequest"]?.stringValue)
        #expect(signed.stringToSign == expected["stringToSign"]?.stringValue)
        #expect(signed.signature == expected["signature"]?.stringValue)
        #expect(signed.authorization == expected["authorization"]?.stringValue)
        // Every header botocore added is sent by us with the same value.
        for pair in expected["addedHeaders"]?.arrayValue ?? [] {
            let name = pair.arrayValue![0].stringValue!, value = pair.arrayValue![1].stringValue!
            #expect(
                signed.headers.contains { $0.name.lowercased() == name.lowercased() && $0.value == value },
                "header \(name)")
        }
        // ...and nothing that botocore did not: S3 always carries the payload hash, other services don't.
        let hasContentHash = signed.headers.contains { $0.name.lowercased() == "x-amz-content-sha256" }
        #expect(hasContentHash == (fixture.string("service") == "s3"))
        #expect(signed.headers.contains { $0.name == "Authorization" && $0.value == signed.authorization })
        // The query string on the wire is the canonical one.
        let query = fixture.pairs("query")
        if !query.isEmpty {
            #expect(
                signed.queryString
                    == expected["canonicalRequest"]?.stringValue?.split(
                        separator: "\n", omittingEmptySubsequences: false)[2].description)
        }
    }

    @Test func signingKeyCacheFollowsDateAndSecret() throws {
        let fixture = try #require(try SigV4Case.all().first { $0.name == "s3-get-simple" })
        var signer = SigV4Signer(service: "s3", region: "us-east-1")
        let dateMs = try #require(fixture.json["dateMilliseconds"]?.int64Value)
        let first = signer.sign(try fixture.request(), credentials: fixture.credentials, dateMilliseconds: dateMs)
        // A different secret must not reuse the cached key.
        var other = fixture.credentials
        other.secretAccessKey += "x"
        let second = signer.sign(try fixture.request(), credentials: other, dateMilliseconds: dateMs)
        #expect(first.signature != second.signature)
        // The next day derives a new key; coming back gives the first signature again.
        _ = signer.sign(try fixture.request(), credentials: fixture.credentials, dateMilliseconds: dateMs + 86_400_000)
        let again = signer.sign(try fixture.request(), credentials: fixture.credentials, dateMilliseconds: dateMs)
        #expect(again.signature == first.signature)
    }

    /// A copy of a signer gets its own libcrypto contexts when it signs (copy on write): copies
    /// signing at once on several threads agree with one signer signing alone.
    @Test func copiesSignAloneAndAlike() async throws {
        let fixture = try #require(try SigV4Case.all().first { $0.name == "s3-get-simple" })
        let dateMs = try #require(fixture.json["dateMilliseconds"]?.int64Value)
        let request = try fixture.request()
        let credentials = fixture.credentials
        var original = SigV4Signer(service: "s3", region: "us-east-1")
        let expected = original.sign(request, credentials: credentials, dateMilliseconds: dateMs).signature
        let shared = original
        let signatures = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var copy = shared
                    return (0..<200).map { _ in
                        copy.sign(request, credentials: credentials, dateMilliseconds: dateMs).signature
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(signatures.count == 1_600 && signatures.allSatisfy { $0 == expected })
    }

    @Test func theEmptyPayloadHashIsSHA256OfNothing() {
        #expect(SigV4Signer.emptyPayloadHash == Hex.encode(SHA256.hash([])))
    }
}

@Suite struct SigV4EncodingTests {
    @Test func encodesRFC3986() {
        #expect(SigV4.encode("aZ09-_.~") == "aZ09-_.~")
        #expect(SigV4.encode("a b+c/d=e&%") == "a%20b%2Bc%2Fd%3De%26%25")
        #expect(SigV4.encodePath("a b/ü") == "a%20b/%C3%BC")
    }

    @Test func decodesListKeys() {
        #expect(SigV4.decode("a%20b+c%2F%C3%BC") == "a b c/ü")
        #expect(SigV4.decode("bad%2") == nil)
        #expect(SigV4.decode("%FF") == nil)
    }

    /// Header values: trimmed (the shared ASCII trim), inner runs of whitespace collapsed to one space.
    @Test(arguments: [
        ("", ""), ("v", "v"), ("a b", "a b"), ("  a  ", "a"), ("a  b", "a b"), ("a\tb", "a b"),
        ("\t a \n\r b\u{0B}\u{0C}c ", "a b c"),
        ("a\u{00A0}b", "a\u{00A0}b"), (" \t ", ""),
    ])
    func trimsHeaderValues(_ value: String, _ expected: String) {
        #expect(SigV4.trimAll(value) == expected)
    }

    @Test func decodesHexEitherCase() {
        #expect(SigV4.decode("%4a%4A") == "JJ")
        #expect(SigV4.decode("%zz") == nil)
        #expect(SigV4.decode("%") == nil)
    }

    @Test func normalizesLikeBotocore() {
        #expect(SigV4.normalizePath("") == "/")
        #expect(SigV4.normalizePath("/") == "/")
        #expect(SigV4.normalizePath("/a//b/./c/../d/") == "/a/b/d/")
        #expect(SigV4.normalizePath("/../x/..") == "/")
    }

    @Test func descriptionsHideSecrets() {
        let creds = SigningCredentials(accessKeyID: "AKID", secretAccessKey: "SECRETSECRET", sessionToken: "TOKENTOKEN")
        let text = "\(creds) \(String(reflecting: creds))"
        #expect(!text.contains("SECRETSECRET") && !text.contains("TOKENTOKEN"))
        var signer = SigV4Signer(service: "s3", region: "us-east-1")
        _ = signer.sign(SignableRequest(method: "GET", host: "h", path: "/"), credentials: creds, dateMilliseconds: 0)
        #expect(!"\(signer)".contains("SECRETSECRET"))
    }
}

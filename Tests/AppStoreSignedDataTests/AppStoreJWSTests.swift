import PlatformSupport
import Testing

@testable import AppStoreSignedData

/// The compact form's structure, before any certificate is looked at.
struct AppStoreJWSTests {
    static func refusal(_ text: String) -> AppStoreSignedDataError? {
        do {
            _ = try AppStoreJWS(text).certificates()
            return nil
        } catch {
            return error
        }
    }

    @Test func splitsAValidJWS() throws {
        let f = try SignedFixtures.get()
        let jws = try AppStoreJWS(f["transaction"])
        #expect(jws.signature.count == 64)
        #expect(jws.payload["bundleId"] == "com.example.photos")
        let der = try jws.certificates()
        #expect(!der.leaf.isEmpty && !der.intermediate.isEmpty)
    }

    @Test func refusesMalformedCompactForms() throws {
        let valid = try SignedFixtures.get()["transaction"]
        let parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let cases = [
            "", "a.b", "a.b.c.d", parts[0] + ".." + parts[2], parts[0] + "." + parts[1] + ".",
            parts[0] + "=." + parts[1] + "." + parts[2], parts[0] + "." + parts[1] + "." + parts[2] + "+",
            "e30." + parts[1] + "." + parts[2],  // header {}: no alg
            Base64.urlEncode(Array(#"{"alg":"ES256","alg":"ES256"}"#.utf8)) + "." + parts[1] + "." + parts[2],
            String(repeating: "a", count: 70_000),
        ]
        for (i, text) in cases.enumerated() {
            #expect(Self.refusal(text)?.kind == .malformed, "case \(i)")
        }
    }
}

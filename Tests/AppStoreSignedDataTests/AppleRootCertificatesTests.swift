import PlatformSupport
import Testing

@testable import AppStoreSignedData
@testable import CryptoPrimitives

struct AppleRootCertificatesTests {
    @Test func theCompiledInRootIsAppleRootCAG3() throws {
        let roots = AppleRootCertificates.defaultRoots
        #expect(roots.count == 1)
        let root = try #require(roots.first)
        #expect(
            Hex.encode(SHA256.hash(root.der)) == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(root.publicKeyCurveName == "secp384r1")
        #expect(root.isSelfSigned)
        // Valid 2014-04-30 18:19:06 to 2039-04-30 18:19:06 UTC.
        #expect(root.notBefore == 1_398_881_946 && root.notAfter == 2_187_800_346)
        // The default configuration trusts it alone.
        #expect(AppStoreVerifierConfiguration(bundleID: "x").roots.map(\.der) == [root.der])
    }
}

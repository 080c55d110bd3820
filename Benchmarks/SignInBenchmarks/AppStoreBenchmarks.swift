import AppStoreSignedData
import Benchmark
import CryptoPrimitives
import PlatformSupport
import StrictJSON

/// A StoreKit 2 signed transaction verified as Apple's App Store Server Library does (strict
/// parse, the x5c chain to the configured root at signedDate with its OIDs, ES256, the payload's
/// rules): with the verified-chain cache (a warm function), and walking the chain every time; beside
/// the floor, libcrypto's ES256 verification of the same signature with the same key.
func registerAppStoreBenchmarks() {
    for (name, capacity) in [("appstore-transaction-chain-cached", 16), ("appstore-transaction-chain-walked", 0)] {
        Benchmark(name) { (benchmark: Benchmark, verifier: AppStoreSignedDataVerifier) in
            let jws = Fixtures.shared.appStoreTransaction
            for _ in benchmark.scaledIterations { blackHole(try? verifier.verifyTransaction(jws)) }
        } setup: {
            prepare {
                try appStoreVerifier(chainCacheCapacity: capacity)
            }
        }
    }

    registerSignatureFloor("es256-verify-floor-of-cached-transaction") {
        let (message, signature, header) = SignatureFloor.parts(of: Fixtures.shared.appStoreTransaction)
        guard let leaf = (try? JSONParser.parse(header))?["x5c"]?.arrayValue?.first?.stringValue,
            let leafDER = Base64.decode(leaf)
        else { fail("the bench transaction has no x5c chain") }
        let key = try P256PublicKey(certificate: X509Certificate(der: leafDER))
        return { key.verify(signature: signature, message: message) }
    }
}

/// A verifier for the test PKI's root and the fixture's bundle id, checked once on the fixture.
func appStoreVerifier(chainCacheCapacity: Int) throws -> AppStoreSignedDataVerifier {
    let fixtures = Fixtures.shared
    let configuration = AppStoreVerifierConfiguration(
        bundleID: fixtures.appStoreBundleID, environments: [.production],
        roots: try X509Certificate.certificates(pem: fixtures.appStoreRootPEM))
    let verifier = try AppStoreSignedDataVerifier(configuration: configuration, chainCacheCapacity: chainCacheCapacity)
    _ = try verifier.verifyTransaction(fixtures.appStoreTransaction)
    return verifier
}

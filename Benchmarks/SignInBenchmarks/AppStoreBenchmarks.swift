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
    Benchmark("appstore-transaction-chain-cached") { (benchmark: Benchmark, verifier: AppStoreSignedDataVerifier) in
        let jws = Fixtures.shared.appStoreTransaction
        for _ in benchmark.scaledIterations { blackHole(try? verifier.verifyTransaction(jws)) }
    } setup: {
        prepare {
            try appStoreVerifier(chainCacheCapacity: 16)
        }
    }

    Benchmark("appstore-transaction-chain-walked") { (benchmark: Benchmark, verifier: AppStoreSignedDataVerifier) in
        let jws = Fixtures.shared.appStoreTransaction
        for _ in benchmark.scaledIterations { blackHole(try? verifier.verifyTransaction(jws)) }
    } setup: {
        prepare {
            try appStoreVerifier(chainCacheCapacity: 0)
        }
    }

    Benchmark("es256-verify-floor-of-cached-transaction") { (benchmark: Benchmark, input: ES256Input) in
        for _ in benchmark.scaledIterations {
            blackHole(input.key.verify(signature: input.signature, message: input.message))
        }
    } setup: {
        prepare {
            let jws = Fixtures.shared.appStoreTransaction
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let signature = Base64.urlDecode(parts[2]),
                let header = Base64.urlDecode(parts[0]),
                let leaf = (try? JSONParser.parse(header))?["x5c"]?.arrayValue?.first?.stringValue,
                let leafDER = Base64.decode(leaf)
            else { fail("the bench transaction is not a JWS with an x5c chain") }
            let message = Array(jws.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
            let key = try P256PublicKey(certificate: X509Certificate(der: leafDER))
            guard key.verify(signature: signature, message: message) else { fail("ES256 floor does not verify") }
            return ES256Input(key: key, signature: signature, message: message)
        }
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

/// A signature, its message and the key that verifies it.
struct ES256Input {
    let key: P256PublicKey
    let signature: [UInt8]
    let message: [UInt8]
}

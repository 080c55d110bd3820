// Benchmark driver for scripts/bench.d/40-appstore (not shipped in any function).
//   appstore-bench <root-pem> <bundle-id> <signed-transaction> [seconds]
// Prints one `key value…` line per figure, each a rate per second on one thread:
//   warm      full signed-transaction verifications (strict parse, chain, ES256, payload rules) with
//             the verified-chain cache, best of 3 timed rounds
//   uncached  the same with the cache off: every verification walks the chain (X509_verify_cert)
//   chain     the chain alone: two certificate parses and X509ChainVerifier.verify
//   floor     libcrypto's ES256 verification of the same signature with the same key (the floor)
// Every loop is bounded in count and time.
import AppStoreSignedData
import BenchSupport
import CryptoPrimitives
import PlatformSupport
import StrictJSON

func fail(_ message: String) -> Never { Bench.fail("appstore-bench", message) }

let args = CommandLine.arguments
guard args.count >= 4 else { fail("usage: appstore-bench <root-pem> <bundle-id> <signed-transaction> [seconds]") }
let jws = args[3]
let seconds = args.count > 4 ? max(0.3, min(Double(args[4]) ?? 3, 30)) : 3

let roots: [X509Certificate]
do { roots = try X509Certificate.certificates(pem: args[1]) } catch { fail("root: \(error)") }
let configuration = AppStoreVerifierConfiguration(bundleID: args[2], environments: [.production], roots: roots)

func rate(seconds: Double, _ body: () -> Void) -> Double { Bench.rate(seconds: seconds, batch: 20, body) }

var sink = 0
@MainActor func verifications(_ verifier: AppStoreSignedDataVerifier) -> () -> Void {
    {
        guard let transaction = try? verifier.verifyTransaction(jws) else { fail("verification failed in the loop") }
        sink &+= transaction.transactionId.utf8.count
    }
}

// ---- warm, with the cache (filled by the first call), best of 3
let cached: AppStoreSignedDataVerifier
let uncached: AppStoreSignedDataVerifier
let signedAt: Int64
do {
    cached = try AppStoreSignedDataVerifier(configuration: configuration)
    uncached = try AppStoreSignedDataVerifier(configuration: configuration, chainCacheCapacity: 0)
    signedAt = try cached.verifyTransaction(jws).signedDate / 1000
} catch { fail("the bench transaction does not verify: \(error)") }
var warmRates: [Double] = []
for _ in 0..<3 { warmRates.append(rate(seconds: seconds / 6, verifications(cached))) }
guard cached.cachedChainCount == 1 else { fail("the warm loop cached more than one chain") }

// ---- uncached, best of 3
var uncachedRates: [Double] = []
for _ in 0..<3 { uncachedRates.append(rate(seconds: seconds / 6, verifications(uncached))) }

// ---- the chain alone, and the ES256 floor: the same certificates, key and signature
let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
guard parts.count == 3, let headerBytes = Base64.urlDecode(parts[0]), let signature = Base64.urlDecode(parts[2]),
    let x5c = (try? JSONParser.parse(headerBytes))?["x5c"]?.arrayValue, x5c.count == 3,
    let leafDER = x5c[0].stringValue.flatMap(Base64.decode),
    let intermediateDER = x5c[1].stringValue.flatMap(Base64.decode)
else { fail("the bench transaction is not a JWS with three certificates") }
let signingInput = Array(jws.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
let chains: X509ChainVerifier
let key: P256PublicKey
do {
    chains = try X509ChainVerifier(
        roots: roots, leafExtensionOID: AppStoreSignedDataVerifier.leafExtensionOID,
        intermediateExtensionOID: AppStoreSignedDataVerifier.intermediateExtensionOID)
    key = try P256PublicKey(certificate: X509Certificate(der: leafDER))
} catch { fail("bench key: \(error)") }
let chainRate = rate(seconds: seconds / 6) {
    guard let leaf = try? X509Certificate(der: leafDER), let intermediate = try? X509Certificate(der: intermediateDER),
        let chain = try? chains.verify(leaf: leaf, intermediate: intermediate, at: signedAt)
    else { fail("chain verification failed in the loop") }
    sink &+= Int(chain.validUntil & 1)
}
var floorRates: [Double] = []
for _ in 0..<3 {
    floorRates.append(
        rate(seconds: seconds / 6) {
            guard key.verify(signature: signature, message: signingInput) else { fail("floor verification failed") }
            sink &+= 1
        })
}

print("warm \(Int(warmRates.max()!)) \(warmRates.map { String(Int($0)) }.joined(separator: ","))")
print("uncached \(Int(uncachedRates.max()!)) \(uncachedRates.map { String(Int($0)) }.joined(separator: ","))")
print("chain \(Int(chainRate))")
print("floor \(Int(floorRates.max()!))")
if sink == 42 { print("") }  // keep the loops' results alive

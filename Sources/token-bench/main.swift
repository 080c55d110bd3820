// Benchmark driver for scripts/bench.d/30-tokens (not shipped in any function).
//   token-bench <apple-jwks-url> <apple-audience> <token> [warm-seconds] [cold-runs]
// Prints one `key value…` line per figure:
//   warm   full verifications/s on one thread, warm JWKS cache (best of 3 timed rounds)
//   floor  RSA PKCS#1 v1.5 SHA-256 verifications/s of the same signature (the cryptographic floor)
//   cold   µs for a first verification with a new HTTP client and empty cache (JWKS fetch from loopback)
//   get    µs for the JWKS GET alone with a new HTTP client (the network floor of `cold`)
// Every loop is bounded in count and time.
import BenchSupport
import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON
import TokenVerification

func fail(_ message: String) -> Never { Bench.fail("token-bench", message) }

let args = CommandLine.arguments
guard args.count >= 4 else {
    fail("usage: token-bench <apple-jwks-url> <apple-audience> <token> [warm-seconds] [cold-runs]")
}
let jwksURL = args[1]
let audience = args[2]
let token = args[3]
let warmSeconds = args.count > 4 ? max(0.2, min(Double(args[4]) ?? 2, 20)) : 2
let coldRuns = args.count > 5 ? max(3, min(Int(args[5]) ?? 30, 500)) : 30

let configuration = VerifierConfiguration(
    apple: ProviderSettings(audiences: [audience], jwksURL: jwksURL),
    google: ProviderSettings(audiences: [], jwksURL: jwksURL))

func nanos() -> UInt64 { Clock.monotonicNanoseconds() }

func rate(seconds: Double, _ body: () -> Void) -> Double { Bench.rate(seconds: seconds, batch: 100, body) }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s[s.count / 2]
}
func percentile(_ xs: [Double], _ p: Double) -> Double {
    let s = xs.sorted()
    return s[min(s.count - 1, Int(Double(s.count - 1) * p))]
}

// ---- warm: one verifier, cache filled by the first call
let http: HTTPClient
do { http = try HTTPClient() } catch { fail("no HTTP client: \(error)") }
let verifier = TokenVerifier(configuration: configuration, http: http)
let deadline = Deadline.after(milliseconds: 120_000)
do {
    let identity = try verifier.verify(token, provider: .apple, nonce: nil, deadline: deadline)
    guard !identity.subject.isEmpty else { fail("empty subject") }
} catch {
    fail("the bench token does not verify: \(error)")
}
var sink = 0
var warmRates: [Double] = []
for _ in 0..<3 {
    warmRates.append(
        rate(seconds: warmSeconds / 3) {
            if let id = try? verifier.verify(token, provider: .apple, nonce: nil, deadline: deadline) {
                sink &+= id.subject.utf8.count
            } else {
                fail("verification failed in the loop")
            }
        })
}
guard verifier.successfulFetchCount(.apple) == 1 else { fail("the warm loop fetched keys again") }

// ---- floor: the RSA verification alone, same key and signature
let parts = token.split(separator: ".", omittingEmptySubsequences: false)
let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
guard let signature = Base64.urlDecode(parts[2]) else { fail("bad signature encoding") }
let jwks: JSONValue
switch http.send(HTTPRequest(url: jwksURL)) {
case .success(let r):
    guard r.status == 200, let doc = try? JSONParser.parse(r.body) else { fail("JWKS fetch failed") }
    jwks = doc
case .failure(let e): fail("JWKS fetch failed: \(e)")
}
let header = try? JSONParser.parse(Base64.urlDecode(parts[0]) ?? [])
let kid = header?["kid"]?.stringValue
guard let jwk = jwks["keys"]?.arrayValue?.first(where: { $0["kid"]?.stringValue == kid }),
    let n = jwk["n"]?.stringValue.flatMap({ Base64.urlDecode($0) }),
    let e = jwk["e"]?.stringValue.flatMap({ Base64.urlDecode($0) }),
    let key = try? RSAPublicKey(modulus: n, exponent: e)
else { fail("bench key not in JWKS") }
let floorRate = rate(seconds: warmSeconds / 3) {
    if key.verifyPKCS1SHA256(signature: signature, message: signingInput) {
        sink &+= 1
    } else {
        fail("floor verification failed")
    }
}

// ---- cold: new client and verifier each time (a new execution environment's first sign-in)
var cold: [Double] = []
var getOnly: [Double] = []
for _ in 0..<coldRuns {
    let t0 = nanos()
    do {
        let client = try HTTPClient()
        let fresh = TokenVerifier(configuration: configuration, http: client)
        _ = try fresh.verify(token, provider: .apple, nonce: nil, deadline: .after(milliseconds: 10_000))
    } catch { fail("cold verification failed: \(error)") }
    cold.append(Double(nanos() - t0) / 1e3)

    let t1 = nanos()
    do {
        let client = try HTTPClient()
        guard case .success(let r) = client.send(HTTPRequest(url: jwksURL)), r.status == 200 else {
            fail("JWKS GET failed")
        }
        sink &+= r.body.count
    } catch { fail("no HTTP client: \(error)") }
    getOnly.append(Double(nanos() - t1) / 1e3)
}

print("warm \(Int(warmRates.max()!)) \(warmRates.map { String(Int($0)) }.joined(separator: ","))")
print("floor \(Int(floorRate))")
print("cold \(Int(median(cold))) \(Int(percentile(cold, 0.9))) \(coldRuns)")
print("get \(Int(median(getOnly))) \(Int(percentile(getOnly, 0.9))) \(coldRuns)")
if sink == 42 { print("") }  // keep the loops' results alive

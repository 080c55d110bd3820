import Benchmark
import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON
import TokenVerification

/// ID-token verification with a warm JWKS cache (strict parse, RS256 over libcrypto, every claim
/// rule), beside its floor: libcrypto's RSA-2048 PKCS#1 v1.5 verification of the same signature.
func registerTokenBenchmarks() {
    Benchmark("token-verify-warm-jwks-cache") { (benchmark: Benchmark, verifier: TokenVerifier) in
        let token = Fixtures.shared.appleToken
        let deadline = Deadline.after(milliseconds: 600_000)
        for _ in benchmark.scaledIterations {
            blackHole(try? verifier.verify(token, provider: .apple, nonce: "bench-nonce", deadline: deadline))
        }
    } setup: {
        prepare {
            let fixtures = Fixtures.shared
            let verifier = TokenVerifier(configuration: verifierConfiguration(), http: try HTTPClient())
            // The first verification fetches the keys; every measured one finds them cached.
            let identity = try verifier.verify(
                fixtures.appleToken, provider: .apple, nonce: "bench-nonce", deadline: .after(milliseconds: 10_000))
            guard identity.subject == fixtures.appleSubject else { fail("the bench token verified as someone else") }
            return verifier
        }
    }

    // A new execution environment's first verification: a new HTTP client and an empty key cache,
    // so the keys are fetched first (from the stand-in, on a new connection); beside that GET alone.
    Benchmark("token-verify-cold-new-client-keys-fetched") {
        (benchmark: Benchmark, configuration: VerifierConfiguration) in
        let token = Fixtures.shared.appleToken
        for _ in benchmark.scaledIterations {
            guard let http = try? HTTPClient() else { fail("no HTTP client") }
            let verifier = TokenVerifier(configuration: configuration, http: http)
            blackHole(
                try? verifier.verify(
                    token, provider: .apple, nonce: "bench-nonce", deadline: .after(milliseconds: 10_000)))
        }
    } setup: {
        verifierConfiguration()
    }

    Benchmark("jwks-get-new-client-floor-of-cold-verify") { benchmark in
        let request = HTTPRequest(url: StandIn.appleJWKSURL)
        for _ in benchmark.scaledIterations {
            guard let http = try? HTTPClient() else { fail("no HTTP client") }
            blackHole(http.send(request))
        }
    }

    Benchmark("rsa2048-verify-floor-of-token-verify") { (benchmark: Benchmark, input: RSAInput) in
        for _ in benchmark.scaledIterations {
            blackHole(input.key.verifyPKCS1SHA256(signature: input.signature, message: input.message))
        }
    } setup: {
        prepare {
            let token = Fixtures.shared.appleToken
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let signature = Base64.urlDecode(parts[2]),
                let jwk = try JSONParser.parse(Fixtures.shared.appleJWKS)["keys"]?.arrayValue?.first,
                let n = jwk["n"]?.stringValue.flatMap({ Base64.urlDecode($0) }),
                let e = jwk["e"]?.stringValue.flatMap({ Base64.urlDecode($0) })
            else { fail("the bench token or its JWKS is malformed") }
            let message = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
            let key = try RSAPublicKey(modulus: n, exponent: e)
            guard key.verifyPKCS1SHA256(signature: signature, message: message) else {
                fail("RSA floor does not verify")
            }
            return RSAInput(key: key, signature: signature, message: message)
        }
    }
}

/// Apple's keys from the stand-in, the test IdP's audience.
func verifierConfiguration() -> VerifierConfiguration {
    VerifierConfiguration(
        apple: ProviderSettings(audiences: [Fixtures.shared.appleAudience], jwksURL: StandIn.appleJWKSURL),
        google: ProviderSettings(audiences: [], jwksURL: StandIn.appleJWKSURL))
}

/// A signature, its message and the key that verifies it.
struct RSAInput {
    let key: RSAPublicKey
    let signature: [UInt8]
    let message: [UInt8]
}

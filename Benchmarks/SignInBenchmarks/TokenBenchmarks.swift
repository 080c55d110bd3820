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

    registerSignatureFloor("rsa2048-verify-floor-of-token-verify") {
        let (message, signature, _) = SignatureFloor.parts(of: Fixtures.shared.appleToken)
        guard let jwk = try JSONParser.parse(Fixtures.shared.appleJWKS)["keys"]?.arrayValue?.first,
            let n = jwk["n"]?.stringValue.flatMap({ Base64.urlDecode($0) }),
            let e = jwk["e"]?.stringValue.flatMap({ Base64.urlDecode($0) })
        else { fail("the bench JWKS is malformed") }
        let key = try RSAPublicKey(modulus: n, exponent: e)
        return { key.verifyPKCS1SHA256(signature: signature, message: message) }
    }
}

/// Apple's keys from the stand-in, the test IdP's audience.
func verifierConfiguration() -> VerifierConfiguration {
    VerifierConfiguration(
        apple: ProviderSettings(audiences: [Fixtures.shared.appleAudience], jwksURL: StandIn.appleJWKSURL),
        google: ProviderSettings(audiences: [], jwksURL: StandIn.appleJWKSURL))
}

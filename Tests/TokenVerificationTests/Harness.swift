import CurlHTTP
import PlatformSupport
import StrictJSON
import Testing

@testable import TokenVerification

/// The verifier's clock, movable by tests (cache ages); tokens are minted at this clock's time.
final class TestClock {
    var offset: Int64 = 0
    var now: Int64 { Clock.nowSeconds() + offset }
    func advance(_ seconds: Int64) { offset += seconds }
}

/// A stand-in IdP, an HTTP client and a verifier configured for the stand-in's audiences and JWKS.
final class Harness {
    static let appleSub = "001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234"
    static let googleSub = "109876543210987654321"
    /// A Firebase uid as Firebase makes them (28 alphanumerics).
    static let firebaseSub = "Xk3pQ9rT2vW8yZ1aB4cD6eF7gH0j"

    let idp: StandIn
    let clock: TestClock
    let http: HTTPClient
    let verifier: TokenVerifier

    init(
        apple: Bool = true, google: Bool = true, firebase: Bool = true, allowAnonymous: Bool = false,
        extraGoogleAudiences: [String] = [], adjust: (inout VerifierConfiguration) -> Void = { _ in }
    ) throws {
        idp = try StandIn()
        let env = idp.environment
        var config = try VerifierConfiguration.from(environment: { env[$0] })
        if !apple { config.apple.audiences = [] }
        if !google { config.google.audiences = [] }
        if !firebase { config.firebase.projectID = nil }
        config.firebase.allowAnonymous = allowAnonymous
        config.google.audiences += extraGoogleAudiences
        adjust(&config)
        let clock = TestClock()
        self.clock = clock
        http = try HTTPClient()
        verifier = TokenVerifier(configuration: config, http: http, now: { clock.now })
    }

    deinit { idp.stop() }

    /// A token with the provider's real claim shape, minted now (on the test clock).
    func token(
        _ provider: IdentityProvider, template: [(String, JSONValue)] = [], claims: JSONValue? = nil,
        drop: [String] = [],
        header: JSONValue? = nil, sign: String? = nil, kid: String? = nil, rawClaims: String? = nil,
        rawHeader: String? = nil
    ) throws -> String {
        let sub: String
        switch provider {
        case .apple: sub = Self.appleSub
        case .google: sub = Self.googleSub
        case .firebase: sub = Self.firebaseSub
        }
        var t = JSONObject([("sub", .string(sub)), ("now", .int(clock.now))])
        for (k, v) in template { t[k] = v }
        return try idp.mint(
            provider.rawValue, template: .object(t), claims: claims, drop: drop, header: header, sign: sign,
            kid: kid, rawClaims: rawClaims, rawHeader: rawHeader)
    }

    func verify(
        _ token: String, _ provider: IdentityProvider, nonce: String? = nil,
        deadline: Deadline = .after(milliseconds: 10_000)
    ) -> Result<VerifiedIdentity, TokenError> {
        do { return .success(try verifier.verify(token, provider: provider, nonce: nonce, deadline: deadline)) } catch {
            return .failure(error)
        }
    }
}

/// Expects a refusal of `kind` whose message contains `fragment` and quotes nothing of the token.
func expectRefused(
    _ result: Result<VerifiedIdentity, TokenError>, _ kind: TokenError.Kind, _ fragment: String, token: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    switch result {
    case .success:
        Issue.record("token was accepted; expected \(kind) (\(fragment))", sourceLocation: sourceLocation)
    case .failure(let error):
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(fragment), "message was: \(error.message)", sourceLocation: sourceLocation)
        expectNoLeak(error.message, token: token, sourceLocation: sourceLocation)
    }
}

/// A message must not quote the token, any of its parts, or the identities in it.
func expectNoLeak(_ message: String, token: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for part in token.split(separator: ".") where part.count >= 8 {
        #expect(!message.contains(part.prefix(8)), "message quotes the token", sourceLocation: sourceLocation)
    }
    for secret in [
        Harness.appleSub, Harness.googleSub, Harness.firebaseSub, "@privaterelay", "@gmail.com", "@example.com",
    ] {
        #expect(!message.contains(secret), "message quotes a claim", sourceLocation: sourceLocation)
    }
}

extension Result where Failure == TokenError {
    var identity: Success? { if case .success(let v) = self { return v } else { return nil } }
    var error: TokenError? { if case .failure(let e) = self { return e } else { return nil } }
}

/// base64url helpers for tampering with tokens in tests (encoding only; the verifier decodes).
enum TokenSurgery {
    static func parts(_ token: String) -> [String] {
        token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
    static func join(_ parts: [String]) -> String { parts.joined(separator: ".") }
}

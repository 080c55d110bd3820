import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON
import Testing

@testable import SignInWithApple

/// The client against the Apple stand-in: a real exchange and revocation, Apple's refusals, the
/// retry rule and the deadline. Serialized: the timing tests should not share the machine with
/// their own suite.
@Suite(.serialized) struct AppleTokenClientTests {
    static let sub = "001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234"

    typealias Fixture = (apple: AppleAuthStandIn, client: AppleTokenClient, http: HTTPClient)

    /// The stand-in, settings from its function environment, and a client with its own HTTPClient.
    static func setUp(now: @escaping () -> Int64 = Clock.nowSeconds) throws -> Fixture {
        let apple = try AppleAuthStandIn()
        let env = apple.environment
        let settings = try #require(try AppleRevocationSettings.from(environment: { env[$0] }))
        let http = try HTTPClient()
        let key = try P256PrivateKey(pem: try #require(env["APPLE_PRIVATE_KEY"]))
        let client = AppleTokenClient(settings: settings, key: key, http: http, now: now)
        return (apple, client, http)
    }

    static func claims(ofJWT jwt: String) throws -> JSONValue {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        return try JSONParser.parse(try #require(Base64.urlDecode(parts[1])))
    }

    @Test func exchangeThenRevokeTheRefreshToken() throws {
        let (apple, client, _) = try Self.setUp()
        defer { apple.stop() }
        let grant = try client.exchange(code: try apple.code(for: Self.sub), deadline: .after(milliseconds: 10_000))
        let idClaims = try Self.claims(ofJWT: grant.idToken)
        #expect(idClaims["sub"] == .string(Self.sub))
        #expect(idClaims["aud"] == .string(client.settings.clientID))
        #expect(idClaims["iss"] == "https://appleid.apple.com")
        let refresh = try #require(grant.refreshToken)
        #expect(grant.accessToken != nil)
        try client.revoke(grant, deadline: .after(milliseconds: 10_000))
        let revoked = try apple.revoked()
        #expect(revoked.count == 1)
        #expect(revoked.first?.token == refresh)
        #expect(revoked.first?.hint == "refresh_token")
    }

    @Test func anAccessTokenIsRevokedWithItsHint() throws {
        let (apple, client, _) = try Self.setUp()
        defer { apple.stop() }
        let grant = try client.exchange(code: try apple.code(for: Self.sub), deadline: .after(milliseconds: 10_000))
        let access = try #require(grant.accessToken)
        try client.revoke(access, hint: .accessToken, deadline: .after(milliseconds: 10_000))
        #expect(try apple.revoked().map { [$0.token, $0.hint] } == [[access, "access_token"]])
    }

    @Test func aReusedOrUnknownCodeIsInvalidGrant() throws {
        let (apple, client, _) = try Self.setUp()
        defer { apple.stop() }
        let code = try apple.code(for: Self.sub)
        _ = try client.exchange(code: code, deadline: .after(milliseconds: 10_000))
        #expect(throws: AppleTokenError.rejected("invalid_grant")) {
            try client.exchange(code: code, deadline: .after(milliseconds: 10_000))
        }
        #expect(throws: AppleTokenError.rejected("invalid_grant")) {
            try client.exchange(code: "c0000.0.mxzs.unknown", deadline: .after(milliseconds: 10_000))
        }
    }

    @Test func aKeyAppleDoesNotKnowIsInvalidClient() throws {
        let (apple, _, http) = try Self.setUp()
        defer { apple.stop() }
        let env = apple.environment
        let settings = try #require(try AppleRevocationSettings.from(environment: { env[$0] }))
        let foreign = try AppleTokenClient(settings: settings, privateKeyPEM: try apple.foreignKeyPEM(), http: http)
        #expect(throws: AppleTokenError.rejected("invalid_client")) {
            try foreign.exchange(code: try apple.code(for: Self.sub), deadline: .after(milliseconds: 10_000))
        }
        #expect(throws: AppleTokenError.rejected("invalid_client")) {
            try foreign.revoke("r0000.0.mxzs.token", hint: .refreshToken, deadline: .after(milliseconds: 10_000))
        }
        #expect(try apple.revoked().isEmpty)
    }

    @Test func anExpiredSecretIsInvalidClient() throws {
        // The client's clock is 400 s behind: its secret (300 s) has expired when Apple reads it.
        let (apple, client, _) = try Self.setUp(now: { Clock.nowSeconds() - 400 })
        defer { apple.stop() }
        #expect(throws: AppleTokenError.rejected("invalid_client")) {
            try client.exchange(code: try apple.code(for: Self.sub), deadline: .after(milliseconds: 10_000))
        }
    }

    @Test func a503IsRetried() throws {
        let (apple, client, http) = try Self.setUp()
        defer { apple.stop() }
        try apple.failNext(1, status: 503)
        let code = try apple.code(for: Self.sub)
        http.resetCounters()
        let grant = try client.exchange(code: code, deadline: .after(milliseconds: 10_000))
        #expect(grant.refreshToken != nil)
        #expect(http.requestCount == 2)
        try apple.failNext(1, status: 429)
        try client.revoke(grant, deadline: .after(milliseconds: 10_000))
        #expect(http.requestCount == 4)
        #expect(try apple.revoked().count == 1)
    }

    @Test func a400Or501IsNotRetried() throws {
        let (apple, client, http) = try Self.setUp()
        defer { apple.stop() }
        try apple.failNext(1, status: 400)  // no body: no documented error name
        #expect(throws: AppleTokenError.rejected("unrecognized")) {
            try client.exchange(code: try apple.code(for: Self.sub), deadline: .after(milliseconds: 10_000))
        }
        try apple.failNext(1, status: 501)
        http.resetCounters()
        #expect(throws: AppleTokenError.unavailable) {
            try client.revoke("r0000.0.mxzs.token", hint: .refreshToken, deadline: .after(milliseconds: 10_000))
        }
        #expect(http.requestCount == 1)
    }

    @Test func anOutageEndsAfterTheAttempts() throws {
        let (apple, client, http) = try Self.setUp()
        defer { apple.stop() }
        let code = try apple.code(for: Self.sub)
        try apple.setDown(true)
        http.resetCounters()
        #expect(throws: AppleTokenError.unavailable) {
            try client.exchange(code: code, deadline: .after(milliseconds: 10_000))
        }
        #expect(http.requestCount == RetryPolicy().maxAttempts)
        try apple.setDown(false)
        #expect(try client.exchange(code: code, deadline: .after(milliseconds: 10_000)).refreshToken != nil)
    }

    @Test func anOutagePastTheDeadlineEndsWithinIt() throws {
        let (apple, client, _) = try Self.setUp()
        defer { apple.stop() }
        let code = try apple.code(for: Self.sub)
        try apple.setDown(true, hang: true)
        let budget: Int64 = 1_500
        let started = Clock.monotonicNanoseconds()
        #expect(throws: AppleTokenError.unavailable) {
            try client.exchange(code: code, deadline: .after(milliseconds: budget))
        }
        let elapsed = Int64((Clock.monotonicNanoseconds() - started) / 1_000_000)
        #expect(elapsed >= budget - 200, "the attempt should have waited for its timeout")
        // Far below three 5 s attempts (what ignoring the deadline costs), with room for a busy machine.
        #expect(elapsed < budget + 2_000, "took \(elapsed) ms for a \(budget) ms deadline")
    }

    @Test func aCodeOfTheWrongShapeIsNeverSent() throws {
        let (apple, client, http) = try Self.setUp()
        defer { apple.stop() }
        http.resetCounters()
        for code in ["", String(repeating: "c", count: 1025), "c123\n", "c123\u{7F}", "cé"] {
            #expect(throws: AppleTokenError.rejected("invalid_request")) {
                try client.exchange(code: code, deadline: .after(milliseconds: 10_000))
            }
        }
        for token in ["", "r 1", String(repeating: "r", count: 16 * 1024 + 1)] {
            #expect(throws: AppleTokenError.rejected("invalid_request")) {
                try client.revoke(token, hint: .refreshToken, deadline: .after(milliseconds: 10_000))
            }
        }
        #expect(http.requestCount == 0)
        #expect(try apple.requests() == (0, 0))
    }

    @Test func anIDTokenForAnotherAppleIDIsReturnedForTheCallerToRefuse() throws {
        // The client does not judge the id_token: the caller verifies it and compares its sub.
        let (apple, client, _) = try Self.setUp()
        defer { apple.stop() }
        try apple.overrideSub("009999.ffffffffffffffffffffffffffffffff.9999")
        let grant = try client.exchange(code: try apple.code(for: Self.sub), deadline: .after(milliseconds: 10_000))
        #expect(try Self.claims(ofJWT: grant.idToken)["sub"] == "009999.ffffffffffffffffffffffffffffffff.9999")
        #expect(try apple.revoked().isEmpty)
    }

    @Test func aPEMThatIsNotAP256KeyIsAConfigurationErrorWithoutThePEM() throws {
        let http = try HTTPClient()
        let pem = "-----BEGIN PRIVATE KEY-----\nU0VDUkVUU0VDUkVU\n-----END PRIVATE KEY-----\n"
        for source in [AppleKeySource.pem(pem), .parameter(name: "/signin/apple-key")] {
            let settings = AppleRevocationSettings(
                teamID: "TEAMID1234", keyID: "KEYID12345", clientID: "com.example.photobackup",
                authURL: "https://appleid.apple.com", keySource: source)
            let error = try #require(throws: ConfigurationError.self) {
                _ = try AppleTokenClient(settings: settings, privateKeyPEM: pem, http: http)
            }
            #expect(error.variable == source.variable)
            #expect(!error.description.contains("U0VDUkVU") && !error.description.contains("BEGIN"))
        }
    }
}

import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TestSupport
import Testing

@testable import SignInWithApple

/// `client_secret` exactly as Apple's "Creating a client secret" describes it, and its signature
/// checked by two verifiers: CryptoPrimitives and Python `cryptography`.
struct AppleClientSecretTests {
    /// Decodes argv[1] (a JWT) with Python's own base64, verifies its ES256 signature with the
    /// public half of the PEM on stdin-less argv[2], and prints header, claims and the verdict.
    static let verify = """
        import base64, json, sys
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, utils
        d = lambda t: base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
        h, c, sig = sys.argv[1].split(".")
        key = serialization.load_pem_private_key(sys.argv[2].encode(), None).public_key()
        der = utils.encode_dss_signature(int.from_bytes(d(sig)[:32], "big"), int.from_bytes(d(sig)[32:], "big"))
        try:
            key.verify(der, f"{h}.{c}".encode(), ec.ECDSA(hashes.SHA256()))
            valid = len(d(sig)) == 64
        except InvalidSignature:
            valid = False
        print(json.dumps({"header": json.loads(d(h)), "claims": json.loads(d(c)), "valid": valid}))
        """

    static let now: Int64 = 1_763_900_000

    static func parts(_ jwt: String) throws -> [[UInt8]] {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        return try parts.map { try #require(Base64.urlDecode($0)) }
    }

    @Test func headerAndClaimsAreExactlyApples() throws {
        let (pem, key) = try TestKeys.p256()
        let jwt = AppleClientSecret.make(settings: TestKeys.settings(pem: pem), key: key, now: Self.now)
        let parts = try Self.parts(jwt)
        #expect(String(decoding: parts[0], as: UTF8.self) == #"{"alg":"ES256","kid":"KEYID12345"}"#)
        let claims = try #require(try JSONParser.parse(parts[1]).objectValue)
        #expect(claims.keys == ["iss", "iat", "exp", "aud", "sub"])
        #expect(claims["iss"] == "TEAMID1234")
        #expect(claims["iat"]?.int64Value == Self.now)
        #expect(claims["exp"]?.int64Value == Self.now + 300)
        #expect(claims["aud"] == "https://appleid.apple.com")
        #expect(claims["sub"] == "com.example.photobackup")
        #expect(parts[2].count == 64)
        // Canonical unpadded base64url throughout (what Apple's JWT libraries expect).
        #expect(!jwt.contains("=") && !jwt.contains("+") && !jwt.contains("/"))
    }

    @Test func lifetimeIsFiveMinutesWellUnderApplesLimit() {
        #expect(AppleClientSecret.lifetimeSeconds == 300)
        #expect(AppleClientSecret.lifetimeSeconds <= 15_777_000)
    }

    @Test func audienceStaysApplesWithALoopbackAuthURL() throws {
        let (pem, key) = try TestKeys.p256()
        let env = [
            "APPLE_TEAM_ID": "TEAMID1234", "APPLE_KEY_ID": "KEYID12345", "APPLE_PRIVATE_KEY": pem,
            "APPLE_CLIENT_ID": "com.example.photobackup", "APPLE_AUTH_URL": "http://127.0.0.1:8443/apple",
        ]
        let settings = try #require(try AppleRevocationSettings.from(environment: { env[$0] }))
        #expect(settings.authURL == "http://127.0.0.1:8443/apple")
        let claims = try JSONParser.parse(
            try Self.parts(AppleClientSecret.make(settings: settings, key: key, now: Self.now))[1])
        #expect(claims["aud"] == "https://appleid.apple.com")
    }

    @Test func signatureVerifiesWithCryptoPrimitives() throws {
        let (pem, key) = try TestKeys.p256()
        let jwt = AppleClientSecret.make(settings: TestKeys.settings(pem: pem), key: key, now: Self.now)
        let signingInput = Array(jwt[..<jwt.lastIndex(of: ".")!].utf8)
        let signature = try Self.parts(jwt)[2]
        let publicKey = try P256PublicKey(subjectPublicKeyInfo: key.publicKey.subjectPublicKeyInfo)
        #expect(publicKey.verify(signature: signature, message: signingInput))
        // Bound to its content: another iat is another message.
        let other = Array(
            AppleClientSecret.make(settings: TestKeys.settings(pem: pem), key: key, now: Self.now + 1)
                .split(separator: ".").prefix(2).joined(separator: ".").utf8)
        #expect(!publicKey.verify(signature: signature, message: other))
    }

    @Test func signatureVerifiesWithPythonCryptography() throws {
        let (pem, key) = try TestKeys.p256()
        let jwt = AppleClientSecret.make(settings: TestKeys.settings(pem: pem), key: key, now: Self.now)
        let answer = try JSONParser.parse(Array(try PythonCryptography.run(Self.verify, arguments: [jwt, pem]).utf8))
        #expect(answer["valid"] == true)
        #expect(answer["header"] == ["alg": "ES256", "kid": "KEYID12345"])
        #expect(answer["claims"]?["exp"]?.int64Value == Self.now + 300)
        // And a secret signed by another key does not verify there.
        let (_, otherKey) = try TestKeys.p256()
        let forged = AppleClientSecret.make(settings: TestKeys.settings(pem: pem), key: otherKey, now: Self.now)
        let refused = try JSONParser.parse(
            Array(try PythonCryptography.run(Self.verify, arguments: [forged, pem]).utf8))
        #expect(refused["valid"] == false)
    }
}

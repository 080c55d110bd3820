/// Sign in with Apple's nonce: a random `raw` value the app keeps and sends to this service, and
/// its lowercase hex SHA-256 (`hashed`) that goes into `ASAuthorizationAppleIDRequest.nonce`.
/// Apple puts the hash in the token; the server accepts the raw value or its hash.
public struct SignInWithAppleNonce: Sendable, Equatable {
    public var raw: String
    public var hashed: String

    /// 32 random characters from a URL-safe alphabet (~190 bits), from the system's CSPRNG.
    public init() {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVXYZabcdefghijklmnopqrstuvwxyz-._")
        var generator = SystemRandomNumberGenerator()
        self.init(raw: String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }))
    }

    public init(raw: String) {
        self.raw = raw
        self.hashed = SHA256Digest.hex(Array(raw.utf8))
    }
}

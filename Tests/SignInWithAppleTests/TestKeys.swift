import CryptoPrimitives
import StrictJSON
import TestSupport

@testable import SignInWithApple

/// Keys and settings for the tests that need no stand-in: the key comes from Python
/// `cryptography`, as Apple's `.p8` would come from elsewhere.
enum TestKeys {
    static let makeKey = """
        from cryptography.hazmat.primitives import serialization as s
        from cryptography.hazmat.primitives.asymmetric import ec
        key = ec.generate_private_key(ec.SECP256R1())
        print(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()).decode(), end="")
        """

    /// A fresh P-256 key as PKCS#8 PEM, and read.
    static func p256() throws -> (pem: String, key: P256PrivateKey) {
        let pem = try PythonCryptography.run(makeKey)
        return (pem, try P256PrivateKey(pem: pem))
    }

    static func settings(pem: String, authURL: String = "https://appleid.apple.com") -> AppleRevocationSettings {
        AppleRevocationSettings(
            teamID: "TEAMID1234", keyID: "KEYID12345", clientID: "com.example.photobackup", authURL: authURL,
            keySource: .pem(pem))
    }
}

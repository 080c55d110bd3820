import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import CryptoPrimitives

/// Signing, and both directions against Python `cryptography`: its signatures verify here, ours
/// verify there, and its PKCS#8 keys load here.
struct P256PrivateKeyTests {
    /// Keys and a signature made by Python: a P-256 PKCS#8 PEM, its SubjectPublicKeyInfo, a
    /// signature (`r ‖ s`) over argv[1], and keys this type must refuse.
    static let makeKeys = """
        import json, sys
        from cryptography.hazmat.primitives import hashes, serialization as s
        from cryptography.hazmat.primitives.asymmetric import ec, rsa, utils
        key = ec.generate_private_key(ec.SECP256R1())
        r, sig_s = utils.decode_dss_signature(key.sign(bytes.fromhex(sys.argv[1]), ec.ECDSA(hashes.SHA256())))
        pem = lambda k, f=s.PrivateFormat.PKCS8, e=s.NoEncryption(): k.private_bytes(s.Encoding.PEM, f, e).decode()
        p384 = ec.generate_private_key(ec.SECP384R1())
        print(json.dumps({
            "pem": pem(key),
            "spki": key.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo).hex(),
            "sig": r.to_bytes(32, "big").hex() + sig_s.to_bytes(32, "big").hex(),
            "p384": pem(p384),
            "p384_spki": p384.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo).hex(),
            "k1": pem(ec.generate_private_key(ec.SECP256K1())),
            "rsa": pem(rsa.generate_private_key(public_exponent=65537, key_size=2048)),
            "sec1": pem(key, s.PrivateFormat.TraditionalOpenSSL),
            "encrypted": pem(key, e=s.BestAvailableEncryption(b"pw")),
        }))
        """

    /// Verifies argv[2:] (`message-hex:signature-hex`, signature `r ‖ s`) with the key argv[1]
    /// (SubjectPublicKeyInfo hex); prints how many verified.
    static let verifyAll = """
        import sys
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, utils
        key = serialization.load_der_public_key(bytes.fromhex(sys.argv[1]))
        ok = 0
        for pair in sys.argv[2:]:
            m, sig = (bytes.fromhex(x) for x in pair.split(":"))
            der = utils.encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
            try:
                key.verify(der, m, ec.ECDSA(hashes.SHA256()))
                ok += 1
            except InvalidSignature:
                pass
        print(ok)
        """

    static let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0".utf8)

    static func keys() throws -> JSONValue {
        try JSONParser.parse(Array(try PythonCryptography.run(makeKeys, arguments: [Hex.encode(message)]).utf8))
    }

    @Test func pythonSignaturesVerifyHereAndOursVerifyThere() throws {
        let made = try Self.keys()
        let spki = try #require(made["spki"]?.stringValue.flatMap(Hex.decode))
        let theirs = try #require(made["sig"]?.stringValue.flatMap(Hex.decode))
        let publicKey = try P256PublicKey(subjectPublicKeyInfo: spki)
        #expect(publicKey.verify(signature: theirs, message: Self.message))
        #expect(!publicKey.verify(signature: theirs, message: Self.message + [0]))

        let key = try P256PrivateKey(pem: try #require(made["pem"]?.stringValue))
        #expect(key.publicKey.subjectPublicKeyInfo == spki)
        // Many signatures, so that scalars with leading zero bytes (1 in 256 each) come up.
        var pairs: [String] = []
        for i in 0..<64 {
            let m = Self.message + Array("\(i)".utf8)
            let signature = key.sign(message: m)
            #expect(signature.count == 64)
            #expect(key.publicKey.verify(signature: signature, message: m))
            pairs.append("\(Hex.encode(m)):\(Hex.encode(signature))")
        }
        let verified = try PythonCryptography.run(Self.verifyAll, arguments: [Hex.encode(spki)] + pairs)
        #expect(verified.trimmingASCIISpaces() == "64")
        // And a tampered one is refused there too (the Python side really checks).
        let bad = "\(Hex.encode(Self.message)):\(Hex.encode(key.sign(message: Self.message + [1])))"
        #expect(
            try PythonCryptography.run(Self.verifyAll, arguments: [Hex.encode(spki), bad]).trimmingASCIISpaces() == "0")
    }

    @Test func signaturesDifferEachTimeAndAllVerify() throws {
        let key = try P256PrivateKey(pem: try #require(try Self.keys()["pem"]?.stringValue))
        let a = key.sign(message: Self.message)
        let b = key.sign(message: Self.message)
        #expect(a != b)
        #expect(key.publicKey.verify(signature: a, message: Self.message))
        #expect(key.publicKey.verify(signature: b, message: Self.message))
    }

    @Test func refusesOtherKeysAndForms() throws {
        let made = try Self.keys()
        #expect(throws: P256PrivateKey.KeyError.notP256) { try P256PrivateKey(pem: made["p384"]!.stringValue!) }
        #expect(throws: P256PrivateKey.KeyError.notP256) { try P256PrivateKey(pem: made["k1"]!.stringValue!) }
        #expect(throws: P256PrivateKey.KeyError.notP256) { try P256PrivateKey(pem: made["rsa"]!.stringValue!) }
        #expect(throws: P256PrivateKey.KeyError.notPKCS8PEM) { try P256PrivateKey(pem: made["sec1"]!.stringValue!) }
        #expect(throws: P256PrivateKey.KeyError.notPKCS8PEM) {
            try P256PrivateKey(pem: made["encrypted"]!.stringValue!)
        }
        let pem = made["pem"]!.stringValue!
        #expect(throws: P256PrivateKey.KeyError.notPKCS8PEM) { try P256PrivateKey(pem: pem + pem) }
        #expect(throws: P256PrivateKey.KeyError.notPKCS8PEM) { try P256PrivateKey(pem: "") }
        #expect(throws: P256PrivateKey.KeyError.invalidKey) {
            try P256PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nMIIBAQ==\n-----END PRIVATE KEY-----\n")
        }
        // A P-384 public key is not a P-256 one either.
        let p384 = try #require(made["p384_spki"]?.stringValue.flatMap(Hex.decode))
        #expect(throws: P256PublicKey.KeyError.invalidKey) { try P256PublicKey(subjectPublicKeyInfo: p384) }
    }

    @Test func theKeyNeverShows() throws {
        let pem = try #require(try Self.keys()["pem"]?.stringValue)
        let key = try P256PrivateKey(pem: pem)
        var dumped = ""
        dump(key, to: &dumped)
        let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        for text in ["\(key)", String(describing: key), String(reflecting: key), dumped] {
            #expect(text.contains("redacted") || text.contains("P256PrivateKey"), "\(text)")
            #expect(!text.contains(body.prefix(16)))
        }
        #expect(Mirror(reflecting: key).children.isEmpty)
        for error: P256PrivateKey.KeyError in [.notPKCS8PEM, .notP256, .invalidKey] {
            #expect(!"\(error)".contains("BEGIN PRIVATE KEY-----\n"))
        }
    }
}

internal import COpenSSL

/// A P-256 private key for ES256 signing (Sign in with Apple's `client_secret`), read from a
/// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`, as Apple hands out `.p8` keys). The key never
/// appears in an error, a description or a mirror.
package final class P256PrivateKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not exactly one `PRIVATE KEY` PEM block of strict base64.
        case notPKCS8PEM
        /// A private key, but not on P-256.
        case notP256
        /// The block does not hold a readable PKCS#8 private key.
        case invalidKey

        package var description: String {
            switch self {
            case .notPKCS8PEM: return "not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)"
            case .notP256: return "the private key is not a P-256 key"
            case .invalidKey: return "the PEM block does not hold a readable PKCS#8 private key"
            }
        }
    }

    private let pkey: OpaquePointer
    /// The matching public key.
    package let publicKey: P256PublicKey

    package init(pem: String) throws(KeyError) {
        let key: OpaquePointer
        do throws(PKCS8PrivateKey.Failure) { key = try PKCS8PrivateKey.read(pem) } catch {
            throw error == .notPKCS8PEM ? .notPKCS8PEM : .invalidKey
        }
        guard P256PublicKey.isP256(key) else {
            EVP_PKEY_free(key)
            throw .notP256
        }
        // The public half, re-read from its SubjectPublicKeyInfo (the same strict path as any key).
        var spkiPointer: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &spkiPointer)
        guard length > 0, let spkiPointer else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw .invalidKey
        }
        let spki = Array(UnsafeBufferPointer(start: spkiPointer, count: Int(length)))
        CRYPTO_free(spkiPointer, #fileID, #line)
        do throws(P256PublicKey.KeyError) { publicKey = try P256PublicKey(subjectPublicKeyInfo: spki) } catch {
            EVP_PKEY_free(key)
            throw .invalidKey
        }
        self.pkey = key
    }

    deinit { EVP_PKEY_free(pkey) }

    /// ES256: ECDSA P-256 with SHA-256 over `message`, as the JWS form `r ‖ s` (64 bytes: libcrypto's
    /// DER converted, each scalar left-padded to 32 bytes). A fresh random nonce each call.
    package func sign(message: [UInt8]) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { fatalError("libcrypto: out of memory") }
        defer { EVP_MD_CTX_free(ctx) }
        // 72 bytes is the largest DER form of a P-256 signature.
        var der = [UInt8](repeating: 0, count: 72)
        var length = der.count
        let ok = message.withUnsafeBufferPointer { m in
            guard EVP_DigestSignInit(ctx, nil, SHA256.md, nil, pkey) == 1 else { return Int32(0) }
            return EVP_DigestSign(ctx, &der, &length, m.baseAddress, m.count)
        }
        // Signing with a valid key fails only if libcrypto itself is broken (no memory, no RNG):
        // nothing a caller could handle, and a wrong signature must never leave here.
        guard ok == 1, let raw = ECDSASignature.raw(fromDER: Array(der[..<length])) else {
            fatalError("libcrypto could not make an ECDSA P-256 signature")
        }
        return raw
    }

    package var description: String { "P256PrivateKey(redacted)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: []) }
}

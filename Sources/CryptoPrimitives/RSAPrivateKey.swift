internal import COpenSSL

/// An RSA private key for RS256 signing (the bearer JWT a Google service account signs for the
/// RISC management API), read from a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`, as Google's
/// service-account key files hold it). The key never appears in an error, a description or a
/// mirror.
package final class RSAPrivateKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not exactly one `PRIVATE KEY` PEM block of strict base64.
        case notPKCS8PEM
        /// A private key, but not an RSA key of at least 2048 bits.
        case notRSA2048
        /// The block does not hold a readable PKCS#8 private key.
        case invalidKey

        package var description: String {
            switch self {
            case .notPKCS8PEM: return "not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)"
            case .notRSA2048: return "the private key is not an RSA key of at least 2048 bits"
            case .invalidKey: return "the PEM block does not hold a readable PKCS#8 private key"
            }
        }
    }

    private let pkey: OpaquePointer

    package init(pem: String) throws(KeyError) {
        let key: OpaquePointer
        do throws(PKCS8PrivateKey.Failure) { key = try PKCS8PrivateKey.read(pem) } catch {
            throw error == .notPKCS8PEM ? .notPKCS8PEM : .invalidKey
        }
        guard EVP_PKEY_is_a(key, "RSA") == 1, EVP_PKEY_get_bits(key) >= 2048 else {
            EVP_PKEY_free(key)
            throw .notRSA2048
        }
        pkey = key
    }

    deinit { EVP_PKEY_free(pkey) }

    /// RS256: RSASSA-PKCS1-v1_5 with SHA-256 over `message`.
    package func sign(message: [UInt8]) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { fatalError("libcrypto: out of memory") }
        defer { EVP_MD_CTX_free(ctx) }
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(pkey)))
        var length = signature.count
        let ok = message.withUnsafeBufferPointer { m in
            guard EVP_DigestSignInit(ctx, nil, SHA256.md, nil, pkey) == 1 else { return Int32(0) }
            return EVP_DigestSign(ctx, &signature, &length, m.baseAddress, m.count)
        }
        // Signing with a valid key fails only if libcrypto itself is broken: nothing a caller could
        // handle, and a wrong signature must never leave here.
        guard ok == 1 else { fatalError("libcrypto could not make an RSA signature") }
        return Array(signature[..<length])
    }

    package var description: String { "RSAPrivateKey(redacted)" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: []) }
}

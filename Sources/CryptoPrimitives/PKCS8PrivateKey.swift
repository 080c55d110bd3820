internal import COpenSSL

/// The one reading of a PKCS#8 PEM private key (`-----BEGIN PRIVATE KEY-----`) both signing keys
/// share: exactly one `PRIVATE KEY` block, PrivateKeyInfo with nothing after it (the encrypted
/// form, which needs a password, is refused). The key's kind is the caller's to check.
enum PKCS8PrivateKey {
    enum Failure: Error, Equatable {
        /// Not exactly one `PRIVATE KEY` PEM block of strict base64.
        case notPKCS8PEM
        /// The block does not hold a readable PKCS#8 private key.
        case invalidKey
    }

    /// The key as an `EVP_PKEY` the caller owns (and frees).
    static func read(_ pem: String) throws(Failure) -> OpaquePointer {
        guard let blocks = PEM.blocks(pem), blocks.count == 1, blocks[0].label == "PRIVATE KEY" else {
            throw .notPKCS8PEM
        }
        let parsed: OpaquePointer? = blocks[0].der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let key = d2i_AutoPrivateKey(nil, &cursor, buffer.count)
            guard let key, cursor == buffer.baseAddress! + buffer.count else {
                if let key { EVP_PKEY_free(key) }
                return nil
            }
            return key
        }
        guard let parsed else {
            ERR_clear_error()
            throw .invalidKey
        }
        return parsed
    }
}

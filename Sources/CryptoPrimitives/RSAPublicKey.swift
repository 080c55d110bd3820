import COpenSSL

/// An RSA public key held by libcrypto, built from a JWK's big-endian modulus and exponent.
/// One owner (this object) frees the EVP_PKEY; keys are immutable once built, so sharing the
/// object between cache entries is safe within the single invocation thread.
public final class RSAPublicKey {
    public enum KeyError: Error, Equatable, Sendable {
        case invalidComponents
        case tooSmall(bits: Int)
    }

    private let pkey: OpaquePointer
    public let bits: Int

    /// - Parameter minimumBits: smaller moduli are refused (the contract: at least 2048).
    public init(modulus: [UInt8], exponent: [UInt8], minimumBits: Int = 2048) throws(KeyError) {
        var n = modulus[...]
        while n.first == 0 { n = n.dropFirst() }
        var e = exponent[...]
        while e.first == 0 { e = e.dropFirst() }
        guard !n.isEmpty, !e.isEmpty, e.count <= 8, n.last.map({ $0 & 1 == 1 }) == true else { throw .invalidComponents }

        guard let bnN = Array(n).withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }),
              let bnE = Array(e).withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) })
        else { throw .invalidComponents }
        defer { BN_free(bnN); BN_free(bnE) }
        guard let builder = OSSL_PARAM_BLD_new() else { throw .invalidComponents }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard OSSL_PARAM_BLD_push_BN(builder, "n", bnN) == 1, OSSL_PARAM_BLD_push_BN(builder, "e", bnE) == 1,
              let params = OSSL_PARAM_BLD_to_param(builder)
        else { throw .invalidComponents }
        defer { OSSL_PARAM_free(params) }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw .invalidComponents }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(ctx) == 1,
              EVP_PKEY_fromdata(ctx, &key, signin_evp_pkey_public_key_selection(), params) == 1, let key
        else { throw .invalidComponents }
        let bits = Int(EVP_PKEY_get_bits(key))
        guard bits >= minimumBits else { EVP_PKEY_free(key); throw .tooSmall(bits: bits) }
        self.pkey = key
        self.bits = bits
    }

    deinit { EVP_PKEY_free(pkey) }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (JWS "RS256").
    public func verifyPKCS1SHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        // A signature must be exactly the modulus length (RFC 8017 §8.2.2 step 1).
        guard signature.count == (bits + 7) / 8 else { return false }
        guard let md = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(md) }
        guard EVP_DigestVerifyInit_ex(md, nil, "SHA256", nil, nil, pkey, nil) == 1 else { return false }
        let ok = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(md, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        ERR_clear_error()
        return ok == 1
    }
}

internal import COpenSSL

/// An RSA public key held by libcrypto, built from a JWK's big-endian modulus and exponent.
/// One owner (this object) frees the EVP_PKEY and its verification context; keys are immutable
/// once built. Not thread-safe (the verification context is reused): the process serves one
/// invocation at a time, on one thread.
package final class RSAPublicKey {
    package enum KeyError: Error, Equatable, Sendable {
        case invalidComponents
        case tooSmall(bits: Int)
    }

    private let pkey: OpaquePointer
    /// An `EVP_PKEY_verify` context set up once (PKCS#1 v1.5 padding, SHA-256): initialising
    /// one per call (algorithm fetch, provider lookup) costs about as much as the RSA operation.
    private let verifyContext: OpaquePointer
    package let bits: Int

    /// - Parameter minimumBits: smaller moduli are refused (the contract: at least 2048).
    /// The modulus must be odd and the exponent odd and at least 3 (e = 1 would make every
    /// message its own signature).
    package init(modulus: [UInt8], exponent: [UInt8], minimumBits: Int = 2048) throws(KeyError) {
        var n = modulus[...]
        while n.first == 0 { n = n.dropFirst() }
        var e = exponent[...]
        while e.first == 0 { e = e.dropFirst() }
        guard !n.isEmpty, !e.isEmpty, e.count <= 8, n.last.map({ $0 & 1 == 1 }) == true,
            e.last.map({ $0 & 1 == 1 }) == true, e.count > 1 || e.first! >= 3
        else { throw .invalidComponents }

        guard let bnN = Array(n).withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) }),
            let bnE = Array(e).withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32($0.count), nil) })
        else { throw .invalidComponents }
        defer {
            BN_free(bnN)
            BN_free(bnE)
        }
        guard let builder = OSSL_PARAM_BLD_new() else { throw .invalidComponents }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps the *pointer* to each parameter name until `to_param`, and the
        // OSSL_PARAMs point at them too: a Swift string literal bridged to `const char *` is a
        // temporary that is gone after the call, so the names must be static C strings.
        guard OSSL_PARAM_BLD_push_BN(builder, staticCString("n"), bnN) == 1,
            OSSL_PARAM_BLD_push_BN(builder, staticCString("e"), bnE) == 1,
            let params = OSSL_PARAM_BLD_to_param(builder)
        else { throw .invalidComponents }
        defer { OSSL_PARAM_free(params) }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, staticCString("RSA"), nil) else { throw .invalidComponents }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(ctx) == 1,
            EVP_PKEY_fromdata(ctx, &key, signin_evp_pkey_public_key_selection(), params) == 1, let key
        else {
            ERR_clear_error()
            throw .invalidComponents
        }
        let bits = Int(EVP_PKEY_get_bits(key))
        guard bits >= minimumBits else {
            EVP_PKEY_free(key)
            throw .tooSmall(bits: bits)
        }
        guard let vctx = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            EVP_PKEY_free(key)
            throw .invalidComponents
        }
        guard EVP_PKEY_verify_init(vctx) == 1,
            EVP_PKEY_CTX_set_rsa_padding(vctx, RSA_PKCS1_PADDING) == 1,
            EVP_PKEY_CTX_set_signature_md(vctx, SHA256.md) == 1
        else {
            EVP_PKEY_CTX_free(vctx)
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw .invalidComponents
        }
        self.pkey = key
        self.verifyContext = vctx
        self.bits = bits
    }

    deinit {
        EVP_PKEY_CTX_free(verifyContext)
        EVP_PKEY_free(pkey)
    }

    /// The modulus length in bytes: the only accepted signature length.
    package var signatureByteCount: Int { (bits + 7) / 8 }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (JWS "RS256").
    package func verifyPKCS1SHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard signature.count == signatureByteCount else { return false }
        return verifyPKCS1SHA256(signature: signature, digest: SHA256.hash(message))
    }

    /// The same over a message given as raw bytes (no copy of a token's signing input).
    package func verifyPKCS1SHA256(signature: [UInt8], message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == signatureByteCount else { return false }
        return verifyPKCS1SHA256(signature: signature, digest: SHA256.hash(bytes: message))
    }

    /// RSASSA-PKCS1-v1_5 over a precomputed SHA-256 digest. libcrypto re-encodes the expected
    /// `EMSA-PKCS1-v1_5` block and compares it whole (RFC 8017 §8.2.2), so alternative paddings
    /// and DigestInfo encodings (BER, missing NULL) are refused.
    package func verifyPKCS1SHA256(signature: [UInt8], digest: [UInt8]) -> Bool {
        // A signature must be exactly the modulus length (RFC 8017 §8.2.2 step 1).
        guard signature.count == signatureByteCount, digest.count == SHA256.byteCount else { return false }
        let ok = signature.withUnsafeBufferPointer { sig in
            digest.withUnsafeBufferPointer { d in
                EVP_PKEY_verify(verifyContext, sig.baseAddress, sig.count, d.baseAddress, d.count)
            }
        }
        if ok != 1 { ERR_clear_error() }
        return ok == 1
    }
}

/// A NUL-terminated C string that lives as long as the program (a literal in the binary).
@inline(__always)
private func staticCString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

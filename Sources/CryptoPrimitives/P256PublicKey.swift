internal import COpenSSL

/// A P-256 (secp256r1) public key held by libcrypto, for ECDSA with SHA-256 (JWS "ES256").
/// Built only from the named-curve, uncompressed form; libcrypto refuses a point that is not on
/// the curve. Immutable once built; one owner (this object) frees the EVP_PKEY. `verify` makes
/// its own digest context per call, so a key may be shared.
package final class P256PublicKey {
    package enum KeyError: Error, Equatable, Sendable {
        /// Not a P-256 key in the named-curve, uncompressed form, or not a point on the curve.
        case invalidKey
    }

    /// `SubjectPublicKeyInfo` up to the point: SEQUENCE, AlgorithmIdentifier { id-ecPublicKey,
    /// prime256v1 }, BIT STRING of 66 bytes (no unused bits, then the 65-byte point).
    static let subjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
        0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]
    static let uncompressedPointByteCount = 65

    let pkey: OpaquePointer
    /// The key's DER `SubjectPublicKeyInfo` (91 bytes).
    package let subjectPublicKeyInfo: [UInt8]

    /// From the uncompressed point `04 ‖ x ‖ y` (65 bytes).
    package convenience init(uncompressedPoint point: [UInt8]) throws(KeyError) {
        guard point.count == Self.uncompressedPointByteCount, point.first == 0x04 else { throw .invalidKey }
        try self.init(subjectPublicKeyInfo: Self.subjectPublicKeyInfoPrefix + point)
    }

    /// From a DER `SubjectPublicKeyInfo`. Only the named-curve P-256 encoding with an
    /// uncompressed point is accepted: explicit curve parameters (a classic way to smuggle in
    /// another curve) and compressed points are refused before libcrypto sees them.
    package init(subjectPublicKeyInfo der: [UInt8]) throws(KeyError) {
        guard der.count == Self.subjectPublicKeyInfoPrefix.count + Self.uncompressedPointByteCount,
            der.starts(with: Self.subjectPublicKeyInfoPrefix),
            der[Self.subjectPublicKeyInfoPrefix.count] == 0x04
        else { throw .invalidKey }
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            // All of it read: nothing after the structure.
            guard let key, cursor == buffer.baseAddress! + buffer.count else {
                if let key { EVP_PKEY_free(key) }
                return nil
            }
            return key
        }
        guard let key else {
            ERR_clear_error()
            throw .invalidKey
        }
        guard Self.isP256(key) else {
            EVP_PKEY_free(key)
            throw .invalidKey
        }
        self.pkey = key
        self.subjectPublicKeyInfo = der
    }

    /// The key a certificate holds (an App Store leaf), by the same strict rule.
    package convenience init(certificate: X509Certificate) throws(KeyError) {
        guard let spki = certificate.subjectPublicKeyInfo else { throw .invalidKey }
        try self.init(subjectPublicKeyInfo: spki)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Whether libcrypto holds `key` as an EC key on P-256 (by its group's name).
    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_is_a(key, "EC") == 1 else { return false }
        var name = [CChar](repeating: 0, count: 32)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return false
        }
        return String(decoding: name[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
    }

    /// The uncompressed point `04 ‖ x ‖ y`.
    package var uncompressedPoint: [UInt8] { Array(subjectPublicKeyInfo.suffix(Self.uncompressedPointByteCount)) }

    /// ES256: ECDSA P-256 with SHA-256 over `message`, `signature` in the JWS form `r ‖ s`
    /// (exactly 64 bytes). Anything else, including a DER signature, r or s zero or not below
    /// the group order, is refused.
    package func verify(signature: [UInt8], message: UnsafeRawBufferPointer) -> Bool {
        guard signature.count == ECDSASignature.rawByteCount,
            ECDSASignature.isValidScalar(signature[0..<32]), ECDSASignature.isValidScalar(signature[32..<64]),
            let der = ECDSASignature.der(fromRaw: signature)
        else { return false }
        return verify(derSignature: der, message: message)
    }

    package func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        message.withUnsafeBytes { verify(signature: signature, message: $0) }
    }

    /// libcrypto's verification of a DER signature, with no checks of our own in front (tests
    /// use it to show what libcrypto refuses by itself).
    func verify(derSignature: [UInt8], message: UnsafeRawBufferPointer) -> Bool {
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        let ok = derSignature.withUnsafeBufferPointer { sig in
            guard EVP_DigestVerifyInit(ctx, nil, SHA256.md, nil, pkey) == 1 else { return Int32(0) }
            return EVP_DigestVerify(
                ctx, sig.baseAddress, sig.count, message.baseAddress?.assumingMemoryBound(to: UInt8.self),
                message.count)
        }
        if ok != 1 { ERR_clear_error() }
        return ok == 1
    }
}

internal import CCryptoShim
internal import COpenSSL

/// Verifies a leaf → intermediate → root chain with libcrypto's `X509_verify_cert`, as Apple's
/// App Store Server Library does: an `X509_STORE` holding only the configured roots (no system
/// paths), the intermediate passed as untrusted, `X509_V_FLAG_X509_STRICT`, never a partial
/// chain (a chain must end at a configured self-signed root), evaluated at a given time; then
/// exactly three certificates, and an extension OID required in the leaf and in the
/// intermediate. Immutable once built: the store is only read, and each call has its own context.
package final class X509ChainVerifier {
    private let store: OpaquePointer
    private let roots: [X509Certificate]
    private let leafExtension: X509ExtensionOID
    private let intermediateExtension: X509ExtensionOID

    /// - Parameters:
    ///   - roots: the trust anchors; at least one.
    ///   - leafExtensionOID, intermediateExtensionOID: dotted OIDs each certificate must carry.
    package init(
        roots: [X509Certificate], leafExtensionOID: String, intermediateExtensionOID: String
    )
        throws(X509ChainError)
    {
        guard !roots.isEmpty else { throw X509ChainError(.noTrustedRoots) }
        guard let leafExtension = X509ExtensionOID(leafExtensionOID),
            let intermediateExtension = X509ExtensionOID(intermediateExtensionOID)
        else { preconditionFailure("extension OIDs are dotted numeric constants") }
        guard let store = X509_STORE_new() else { fatalError("libcrypto: out of memory") }
        for root in roots where X509_STORE_add_cert(store, root.x509) != 1 {
            // Only a duplicate is refused by X509_STORE_add_cert in 3.0 (and it is harmless).
            ERR_clear_error()
        }
        self.store = store
        self.roots = roots
        self.leafExtension = leafExtension
        self.intermediateExtension = intermediateExtension
    }

    deinit { X509_STORE_free(store) }

    /// Verifies `leaf` → `intermediate` → a configured root at `time` (seconds since the epoch).
    package func verify(
        leaf: X509Certificate, intermediate: X509Certificate, at time: Int64
    )
        throws(X509ChainError) -> X509VerifiedChain
    {
        guard let ctx = X509_STORE_CTX_new() else { fatalError("libcrypto: out of memory") }
        defer { X509_STORE_CTX_free(ctx) }
        guard let untrusted = ccrypto_sk_x509_new_null() else { fatalError("libcrypto: out of memory") }
        // The stack borrows the intermediate (no reference taken), so only the stack is freed.
        defer { ccrypto_sk_x509_free(untrusted) }
        guard ccrypto_sk_x509_push(untrusted, intermediate.x509) == 1,
            X509_STORE_CTX_init(ctx, store, leaf.x509, untrusted) == 1
        else { fatalError("libcrypto: out of memory") }
        X509_STORE_CTX_set_flags(ctx, UInt(X509_V_FLAG_X509_STRICT))
        X509_STORE_CTX_set_time(ctx, 0, time_t(time))

        guard X509_verify_cert(ctx) == 1 else {
            let code = X509_STORE_CTX_get_error(ctx)
            let depth = X509_STORE_CTX_get_error_depth(ctx)
            ERR_clear_error()
            throw Self.error(code: code, depth: depth)
        }
        guard let chain = X509_STORE_CTX_get0_chain(ctx) else { throw X509ChainError(.wrongChainLength(0)) }
        let count = Int(ccrypto_sk_x509_num(chain))
        // Three exactly, with our intermediate in the middle: a leaf issued by a root directly
        // verifies as a chain of two (the intermediate then unused), which is refused here.
        guard count == 3 else { throw X509ChainError(.wrongChainLength(count)) }
        guard X509_cmp(ccrypto_sk_x509_value(chain, 1), intermediate.x509) == 0 else {
            throw X509ChainError(.wrongChainLength(count))
        }
        let anchor = ccrypto_sk_x509_value(chain, 2)
        guard let root = roots.first(where: { X509_cmp($0.x509, anchor) == 0 }) else {
            throw X509ChainError(.untrustedRoot, at: .root)
        }
        guard leaf.hasExtension(leafExtension) else {
            throw X509ChainError(.missingExtension(oid: leafExtension.dotted), at: .leaf)
        }
        guard intermediate.hasExtension(intermediateExtension) else {
            throw X509ChainError(.missingExtension(oid: intermediateExtension.dotted), at: .intermediate)
        }
        return X509VerifiedChain(leaf: leaf, intermediate: intermediate, root: root)
    }

    /// libcrypto's verify code, and the depth it is about, as a reason and a position.
    static func error(code: Int32, depth: Int32) -> X509ChainError {
        let position: X509ChainError.Position? =
            switch depth {
            case 0: .leaf
            case 1: .intermediate
            case 2: .root
            default: nil
            }
        let reason: X509ChainError.Reason
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED: reason = .expired
        case X509_V_ERR_CERT_NOT_YET_VALID: reason = .notYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
            X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED:
            reason = .untrustedRoot
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            reason = .badSignature
        case X509_V_ERR_INVALID_CA, X509_V_ERR_PATH_LENGTH_EXCEEDED, X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
            reason = .notACertificateAuthority
        default:
            // libcrypto's text for a code is a fixed string ("Missing Authority Key Identifier").
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "unknown"
            reason = .refused(code: code, text: text)
        }
        return X509ChainError(reason, at: position)
    }
}

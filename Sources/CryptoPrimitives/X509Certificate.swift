internal import COpenSSL

#if canImport(Glibc)
import Glibc
#endif

/// An X.509 certificate parsed by libcrypto from DER, kept with its bytes. Immutable; one owner
/// (this object) holds a reference to the X509 and drops it at deinit. Descriptions show the
/// size only: a certificate's names are not ours to echo into logs. Sendable: nothing is mutated
/// after init, and libcrypto 3 guards the X509's lazily cached fields with its own lock.
package final class X509Certificate: CustomStringConvertible, @unchecked Sendable {
    package enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The bytes are not exactly one DER certificate.
        case malformed
        /// A PEM bundle with no certificate, a block that is not a certificate, or bad PEM.
        case notPEMCertificates

        package var description: String {
            switch self {
            case .malformed: return "not a DER X.509 certificate"
            case .notPEMCertificates: return "not a PEM bundle of CERTIFICATE blocks"
            }
        }
    }

    let x509: OpaquePointer
    /// The certificate's DER encoding, as given.
    package let der: [UInt8]

    package init(der: [UInt8]) throws(ParseError) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            // All of it read: no trailing bytes after the certificate.
            guard let certificate, cursor == buffer.baseAddress! + buffer.count else {
                if let certificate { X509_free(certificate) }
                return nil
            }
            return certificate
        }
        guard let parsed else {
            ERR_clear_error()
            throw .malformed
        }
        self.x509 = parsed
        self.der = der
    }

    deinit { X509_free(x509) }

    /// Every certificate of a PEM bundle (configured trust roots), in order. Text between blocks
    /// is ignored; every block must be a CERTIFICATE, and there must be at least one.
    package static func certificates(pem: String) throws(ParseError) -> [X509Certificate] {
        guard let blocks = PEM.blocks(pem), !blocks.isEmpty, blocks.allSatisfy({ $0.label == "CERTIFICATE" }) else {
            throw .notPEMCertificates
        }
        var certificates: [X509Certificate] = []
        for block in blocks { certificates.append(try X509Certificate(der: block.der)) }
        return certificates
    }

    package var description: String { "X509Certificate(\(der.count) bytes)" }

    /// Whether the certificate carries an extension with this OID (critical or not; its value
    /// is not looked at), as Apple's verifiers check the App Store OIDs.
    func hasExtension(_ oid: X509ExtensionOID) -> Bool {
        X509_get_ext_by_OBJ(x509, oid.object, -1) >= 0
    }

    package func hasExtension(oid: String) -> Bool { X509ExtensionOID(oid).map(hasExtension) ?? false }

    /// notBefore, as seconds since the epoch: valid from this second on.
    package var notBefore: Int64 { Self.seconds(X509_get0_notBefore(x509)) }
    /// notAfter, as seconds since the epoch: libcrypto's checks treat the certificate as expired
    /// from this second on (valid while `time < notAfter`).
    package var notAfter: Int64 { Self.seconds(X509_get0_notAfter(x509)) }

    /// The name of the key's curve ("prime256v1", "secp384r1"), nil for a key that is not EC.
    package var publicKeyCurveName: String? {
        guard let key = X509_get0_pubkey(x509), EVP_PKEY_is_a(key, "EC") == 1 else {
            ERR_clear_error()
            return nil
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return nil }
        return String(decoding: name[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Issuer equals subject and the certificate's signature verifies with its own key.
    package var isSelfSigned: Bool {
        let result = X509_self_signed(x509, 1)
        ERR_clear_error()
        return result == 1
    }

    /// The key's DER SubjectPublicKeyInfo, as the certificate holds it.
    var subjectPublicKeyInfo: [UInt8]? {
        guard let key = X509_get0_pubkey(x509) else {
            ERR_clear_error()
            return nil
        }
        var pointer: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &pointer)
        guard length > 0, let pointer else {
            ERR_clear_error()
            return nil
        }
        defer { CRYPTO_free(pointer, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
    }

    /// An ASN1_TIME as seconds since the epoch (UTC); `Int64.min` if libcrypto cannot read it
    /// (it would have refused such a certificate at verification anyway).
    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64 {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return Int64.min }
        return Int64(timegm(&parts))
    }
}

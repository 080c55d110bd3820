internal import COpenSSL
import PlatformSupport

/// An object identifier in libcrypto's form (ASN1_OBJECT), converted once from dotted text so
/// that looking an extension up costs no parsing.
final class X509ExtensionOID {
    let object: OpaquePointer
    /// The dotted form, e.g. "1.2.840.113635.100.6.11.1".
    let dotted: String

    /// nil unless `dotted` is a numeric OID (names such as "basicConstraints" are not accepted).
    init?(_ dotted: String) {
        guard !dotted.isEmpty, dotted.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || ASCII.isDigit($0) }),
            let object = OBJ_txt2obj(dotted, 1)
        else {
            ERR_clear_error()
            return nil
        }
        self.object = object
        self.dotted = dotted
    }

    deinit { ASN1_OBJECT_free(object) }
}

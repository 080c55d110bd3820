/// Why a certificate chain was refused: the rule and the certificate's position, never its
/// content (names, serials and keys stay out of messages and logs).
package struct X509ChainError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Reason: Equatable, Sendable {
        /// The verifier has no trusted root.
        case noTrustedRoots
        /// The verification time is at or after a certificate's notAfter.
        case expired
        /// The verification time is before a certificate's notBefore.
        case notYetValid
        /// The chain does not lead to one of the configured roots.
        case untrustedRoot
        /// A certificate's signature does not verify with its issuer's key.
        case badSignature
        /// An issuer is not allowed to issue certificates (basic constraints, key usage, path length).
        case notACertificateAuthority
        /// The verified chain does not have the expected number of certificates.
        case wrongChainLength(Int)
        /// A required extension (by OID) is missing.
        case missingExtension(oid: String)
        /// Any other refusal by libcrypto's verification (strict RFC 5280 rules among them),
        /// with its verify code and libcrypto's fixed text for it.
        case refused(code: Int32, text: String)
    }

    /// Which certificate of the chain the reason is about.
    package enum Position: String, Equatable, Sendable {
        case leaf, intermediate, root
    }

    package let reason: Reason
    package let position: Position?

    package init(_ reason: Reason, at position: Position? = nil) {
        self.reason = reason
        self.position = position
    }

    package var description: String {
        let rule: String
        switch reason {
        case .noTrustedRoots: rule = "no trusted root certificate is configured"
        case .expired: rule = "expired at the verification time"
        case .notYetValid: rule = "not yet valid at the verification time"
        case .untrustedRoot: rule = "does not chain to a trusted root"
        case .badSignature: rule = "signature does not verify with its issuer's key"
        case .notACertificateAuthority: rule = "issuer is not allowed to issue certificates"
        case .wrongChainLength(let n): rule = "verified chain has \(n) certificates, not 3"
        case .missingExtension(let oid): rule = "lacks the extension \(oid)"
        case .refused(let code, let text): rule = "refused by X.509 verification (\(code): \(text))"
        }
        guard let position else { return "certificate chain: \(rule)" }
        return "\(position.rawValue) certificate: \(rule)"
    }
}

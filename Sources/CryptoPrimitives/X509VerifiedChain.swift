/// A chain `X509ChainVerifier` accepted, with the window of times at which it holds: every check
/// but the validity periods is independent of the time, so the same chain verifies at any time
/// in `validFrom..<validUntil` (what a cache of verified chains may rely on).
package struct X509VerifiedChain {
    package let leaf: X509Certificate
    package let intermediate: X509Certificate
    package let root: X509Certificate
    /// The latest notBefore of the three (seconds since the epoch).
    package let validFrom: Int64
    /// The earliest notAfter of the three: from this second on, one of them has expired.
    package let validUntil: Int64

    init(leaf: X509Certificate, intermediate: X509Certificate, root: X509Certificate) {
        self.leaf = leaf
        self.intermediate = intermediate
        self.root = root
        let all = [leaf, intermediate, root]
        validFrom = all.map(\.notBefore).max()!
        validUntil = all.map(\.notAfter).min()!
    }

    /// Whether `time` (seconds since the epoch) is inside every certificate's validity period,
    /// by libcrypto's rule: notBefore ≤ time < notAfter.
    package func isValid(at time: Int64) -> Bool { time >= validFrom && time < validUntil }
}

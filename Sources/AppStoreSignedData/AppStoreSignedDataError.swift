import CryptoPrimitives

/// Why signed data from the App Store was refused. The message names the rule that failed (and,
/// for a nested JWS, where it sits), never a value from the data: transaction ids, account tokens
/// and certificate names stay out of errors and logs.
package struct AppStoreSignedDataError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// Not a compact JWS of the expected shape (parts, base64, JSON, header members, x5c).
        case malformed
        /// The header's `alg` is not `ES256`.
        case algorithm
        /// The x5c chain did not verify to a configured root at the payload's `signedDate`.
        case certificateChain(X509ChainError)
        /// The JWS signature does not verify with the leaf certificate's P-256 key.
        case signature
        /// A payload member is missing or of the wrong type.
        case payload
        /// The environment is `Xcode` or `LocalTesting` (Apple signs neither), unknown, or not one
        /// this deployment accepts; or a nested JWS names another environment than its notification.
        case environment
        /// The bundle id is not the configured one.
        case bundleID
        /// The notification's app Apple ID is not the configured one.
        case appAppleID
    }

    package let kind: Kind
    /// The rule, for people and logs.
    package let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    static func malformed(_ message: String) -> Self { Self(.malformed, message) }
    static func payload(_ message: String) -> Self { Self(.payload, message) }

    /// The same error about a JWS nested in a notification (`signedTransactionInfo`, ...).
    func nested(in member: String) -> Self { Self(kind, "\(member): \(message)") }

    package var description: String { "App Store signed data refused: \(message)" }
}

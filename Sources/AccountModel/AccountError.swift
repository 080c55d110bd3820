import AWSClients

/// Outcomes the account domain reports; AuthService maps each to the contract's error code.
package enum AccountError: Error, Sendable {
    case accountNotFound
    case accountAlreadyExists
    case providerAlreadyLinked
    case providerNotLinked
    case lastProvider
    case sessionInvalid(reason: String)
    case reauthenticationRequired
    /// An operator disabled the account: its own actions change nothing until it is enabled.
    case accountDisabled
    /// Google reported this Google identity hijacked: sign-in and link with it are refused until
    /// Google reports it enabled again (contract v4, IDENTITY_SUSPENDED).
    case identitySuspended
    /// The purchase is claimed by another account, or its `appAccountToken` names another one.
    case purchaseBelongsToOtherAccount
    /// The purchase cannot belong to any account (e.g. an `originalTransactionId` that is not Apple's shape).
    case invalidPurchase(String)
    /// A concurrent change kept winning and the bounded retry did not settle.
    case conflict(String)
    /// S3 or STS failed after retries, or the deadline is near.
    case upstream(AWSError)
    /// A stored document is unreadable: reported as a bug, never silently overwritten.
    case corruptDocument(key: String, reason: String)
    /// This code or its backend broke a rule the flows rely on (not a document's fault): a bug.
    case internalError(String)

    /// A token the session issued and has replaced came back: the session is revoked (the
    /// ReuseDetected metric counts these).
    package static var tokenReuse: AccountError { .sessionInvalid(reason: reuseReason) }
    private static let reuseReason = "reuse"

    package var isTokenReuse: Bool {
        if case .sessionInvalid(let reason) = self { return reason == Self.reuseReason }
        return false
    }
}

extension AccountError {
    /// An account failure in a few words, for a finding's note or an unchecked reason: the
    /// case and, for AWS, its code (never a message that could carry more).
    package var brief: String {
        switch self {
        case .upstream(let aws): return "AWS \(aws.code ?? String(describing: aws.kind))"
        case .corruptDocument(_, let why): return why
        case .conflict(let why): return "kept changing (\(why))"
        default: return String(String(describing: self).prefix { $0 != "(" })
        }
    }
}

/// Why the App Store Server API gave no usable answer; each case is one word for the log (no
/// token, key or transaction data ever reaches it).
package enum AppStoreServerAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not reached within the deadline, a transport failure, 429 or 5xx after the retries.
    case unavailable
    /// Apple refused the request's token (401): a wrong key, key id, issuer or bundle id.
    case unauthorized
    /// Apple refused the request otherwise (4xx: an unknown transaction id, a bad request).
    case rejected(status: Int)
    /// An answer that is not the documented shape.
    case malformedAnswer

    package var description: String {
        switch self {
        case .unavailable: return "unavailable"
        case .unauthorized: return "unauthorized"
        case .rejected(let status): return "rejected(\(status))"
        case .malformedAnswer: return "malformed"
        }
    }
}

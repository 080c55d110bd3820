/// Why an exchange or a revocation did not happen. Never carries a token, a code or the secret:
/// `.rejected` holds only one of the OAuth error names Apple documents, or a fixed word.
package enum AppleTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple (or, for a code or token of the wrong shape, this client before sending) refused the
    /// request: `invalid_grant` (expired or used code), `invalid_client` (the secret or client id),
    /// ... or `unrecognized` for an answer that names no documented error.
    case rejected(String)
    /// No answer, or 429/5xx, until the attempts or the deadline ran out.
    case unavailable
    /// A success answer this client cannot read (not JSON, no `id_token`, nothing to revoke).
    case malformedAnswer

    /// The `error` values of Apple's ErrorResponse (Sign in with Apple REST API) and RFC 7009's
    /// `unsupported_token_type` for `/auth/revoke`.
    package static let documentedCodes: Set<String> = [
        "invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type",
        "invalid_scope", "unsupported_token_type",
    ]
    /// Stands for any other `error` value, so text from the answer never reaches a message.
    package static let unrecognized = "unrecognized"

    /// `.rejected` with `code` if it is a documented name, else with `unrecognized`.
    package static func rejection(_ code: String?) -> AppleTokenError {
        guard let code, documentedCodes.contains(code) else { return .rejected(unrecognized) }
        return .rejected(code)
    }

    package var description: String {
        switch self {
        case .rejected(let code): return "Apple refused the request (\(code))"
        case .unavailable: return "Apple's token endpoint did not answer in time"
        case .malformedAnswer: return "Apple's answer could not be read"
        }
    }
}

import AccountDomain
import AWSClients
import LambdaRuntime
import TokenVerification

/// A failure that is not the caller's and not a passing outage: a bug or a broken deployment.
/// It goes to the Runtime API error endpoint, so Lambda's error metrics count it.
public struct UnclassifiedFailure: LambdaFunctionError {
    public let errorType: String
    public let errorMessage: String
}

extension ServiceError {
    static func from(_ error: TokenError) -> ServiceError {
        switch error.kind {
        case .invalid: return ServiceError(.invalidToken, error.message)
        case .expired: return ServiceError(.tokenExpired, error.message)
        case .unsupportedProvider: return ServiceError(.unsupportedProvider, error.message)
        case .keysUnavailable: return ServiceError(.upstreamUnavailable, "The identity provider's keys could not be fetched; try again shortly.")
        }
    }

    /// Maps a domain outcome to the contract's code, or throws it on as unclassified.
    static func from(_ error: AccountError, provider: IdentityProvider? = nil) throws(UnclassifiedFailure) -> ServiceError {
        let name = provider.map { $0 == .apple ? "Apple" : "Google" } ?? "this"
        switch error {
        case .accountNotFound: return ServiceError(.accountNotFound, "No account is linked to this \(name) sign-in.")
        case .accountAlreadyExists: return ServiceError(.accountAlreadyExists, "An account already exists for this \(name) sign-in; sign in instead.")
        case .providerAlreadyLinked: return ServiceError(.providerAlreadyLinked, "This \(name) sign-in is linked to another account, or this account already has a different \(name) sign-in.")
        case .providerNotLinked: return ServiceError(.providerNotLinked, "This account has no \(name) sign-in to unlink.")
        case .lastProvider: return ServiceError(.lastProvider, "This is the account's only sign-in method; link another before unlinking it.")
        case .sessionInvalid: return ServiceError(.sessionInvalid, "The session is not valid; sign in again.")
        case .reauthenticationRequired: return ServiceError(.reauthenticationRequired, "This change needs a recent sign-in; sign in again, then retry.")
        case .conflict: return ServiceError(.conflict, "A concurrent change to this account won; retry.")
        case .upstream(let aws):
            if aws.kind == .conflict {
                // S3's 409 ConditionalRequestConflict outlasted the client's retries.
                return ServiceError(.conflict, "A concurrent change to this account won; retry.")
            }
            if aws.isRetryable || aws.kind == .unavailable || aws.kind == .throttled {
                return ServiceError(.upstreamUnavailable, "Storage or credentials service unavailable; retry with backoff.")
            }
            throw UnclassifiedFailure(errorType: "AWS.\(aws.code ?? String(describing: aws.kind))", errorMessage: "S3/STS refused a request: \(aws.code ?? "\(aws.kind)")")
        case .corruptDocument(let key, let reason):
            throw UnclassifiedFailure(errorType: "Account.CorruptDocument", errorMessage: "\(redactedKey(key)): \(reason)")
        case .internalError(let reason):
            throw UnclassifiedFailure(errorType: "Account.InternalError", errorMessage: reason)
        }
    }

    /// Keys carry provider subjects and account ids; keep only their shape in error messages.
    static func redactedKey(_ key: String) -> String {
        let parts = key.split(separator: "/")
        guard let first = parts.first else { return key }
        return first + "/…" + (parts.count > 2 ? "/" + parts[parts.count - 1] : "")
    }
}

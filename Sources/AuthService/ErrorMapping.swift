import AWSClients
import AccountModel
import AccountStore
import AppStoreSignedData
import LambdaRuntime
import TokenVerification

/// The one place where a failure becomes the contract's code (docs/API.md, "The envelope"): the
/// request's own faults, token verification, and the account domain. What cannot be classified
/// (a bug, a broken deployment) is `UnclassifiedFailure`, reported through the Runtime API's
/// error endpoint so that Lambda's error metrics count bugs, not bad passwords.
package enum ErrorMapping {
    /// The contract's code for `error`; rethrows what is not the caller's fault or a passing
    /// outage (an `UnclassifiedFailure`, or an error of a type no mapping knows, which the
    /// runtime reports by its type name only).
    package static func serviceError(for error: any Error, provider: IdentityProvider?) throws -> ServiceError {
        switch error {
        case let e as ServiceError: return e
        case let e as TokenError: return serviceError(e)
        case let e as AccountError: return try serviceError(e, provider: provider).get()
        case let e as AppStoreSignedDataError:
            return ServiceError(.invalidPurchase, "The App Store's signed data was refused (\(e.message)).")
        default: throw error
        }
    }

    package static func serviceError(_ error: TokenError) -> ServiceError {
        switch error.kind {
        case .invalid: return ServiceError(.invalidToken, error.message)
        case .expired: return ServiceError(.tokenExpired, error.message)
        case .unsupportedProvider: return ServiceError(.unsupportedProvider, error.message)
        case .keysUnavailable:
            return ServiceError(
                .upstreamUnavailable, "The identity provider's keys could not be fetched; try again shortly.")
        }
    }

    package static func serviceError(
        _ error: AccountError, provider: IdentityProvider?
    ) -> Result<ServiceError, UnclassifiedFailure> {
        let name = provider?.displayName ?? "this"
        switch error {
        case .accountNotFound:
            return .success(ServiceError(.accountNotFound, "No account is linked to this \(name) sign-in."))
        case .accountAlreadyExists:
            return .success(
                ServiceError(
                    .accountAlreadyExists, "An account already exists for this \(name) sign-in; sign in instead."))
        case .providerAlreadyLinked:
            return .success(
                ServiceError(
                    .providerAlreadyLinked,
                    "This \(name) sign-in is linked to another account, or this account already has a different \(name) sign-in."
                ))
        case .providerNotLinked:
            return .success(ServiceError(.providerNotLinked, "This account has no \(name) sign-in to unlink."))
        case .lastProvider:
            return .success(
                ServiceError(
                    .lastProvider, "This is the account's only sign-in method; link another before unlinking it."))
        case .sessionInvalid: return .success(ServiceError(.sessionInvalid, "The session is not valid; sign in again."))
        case .reauthenticationRequired:
            return .success(
                ServiceError(
                    .reauthenticationRequired, "This change needs a recent sign-in; sign in again, then retry."))
        case .accountDisabled:
            return .success(ServiceError(.accountDisabled, "This account is disabled; contact support."))
        case .identitySuspended:
            return .success(
                ServiceError(
                    .identitySuspended,
                    "Google reported this Google account compromised; sign in with the account's other provider, "
                        + "or secure the Google account first."))
        case .conflict: return .success(ServiceError(.conflict, "A concurrent change to this account won; retry."))
        case .purchaseBelongsToOtherAccount:
            return .success(
                ServiceError(
                    .purchaseBelongsToOtherAccount,
                    "This purchase belongs to another account; sign in with the account that made the purchase."))
        case .invalidPurchase(let reason):
            return .success(ServiceError(.invalidPurchase, "The purchase is not valid: \(reason)."))
        case .upstream(let aws):
            // S3's 409 ConditionalRequestConflict that outlasted the client's retries.
            if aws.kind == .conflict {
                return .success(ServiceError(.conflict, "A concurrent change to this account won; retry."))
            }
            if aws.isRetryable || aws.kind == .unavailable || aws.kind == .throttled {
                return .success(
                    ServiceError(
                        .upstreamUnavailable, "Storage or credentials service unavailable; retry with backoff."))
            }
            return .failure(
                UnclassifiedFailure(
                    errorType: "AWS.\(aws.code ?? String(describing: aws.kind))",
                    errorMessage: "S3/STS refused a request: \(aws.code ?? "\(aws.kind)")"))
        case .corruptDocument(let key, let reason):
            return .failure(
                UnclassifiedFailure(
                    errorType: "Account.CorruptDocument", errorMessage: "\(redactedKey(key)): \(reason)"))
        case .internalError(let reason):
            return .failure(UnclassifiedFailure(errorType: "Account.InternalError", errorMessage: reason))
        }
    }

    /// Keys carry provider subjects and account ids; keep only their shape in error messages:
    /// the first segment, and the last one when it names a document (`profile.json`), never an
    /// identifier (`identities/apple/<sub>`, a session id).
    package static func redactedKey(_ key: String) -> String {
        let parts = key.split(separator: "/")
        guard let first = parts.first else { return key }
        guard parts.count > 2, first != "identities", let last = parts.last,
            ["profile.json", "providers.json"].contains(String(last))
        else {
            return first + "/…"
        }
        return first + "/…/" + last
    }
}

/// A failure that is not the caller's and not a passing outage: a bug or a broken deployment.
package struct UnclassifiedFailure: LambdaFunctionError {
    package let errorType: String
    package let errorMessage: String
}

/// The contract's stable error codes (docs/API.md, "The envelope"). `message` texts are for people
/// and never contain a token, a secret or a stack trace.
package enum ErrorCode: String, Sendable, CaseIterable {
    case invalidRequest = "INVALID_REQUEST"
    case unsupportedProvider = "UNSUPPORTED_PROVIDER"
    case invalidToken = "INVALID_TOKEN"
    case tokenExpired = "TOKEN_EXPIRED"
    case accountNotFound = "ACCOUNT_NOT_FOUND"
    case accountAlreadyExists = "ACCOUNT_ALREADY_EXISTS"
    case providerAlreadyLinked = "PROVIDER_ALREADY_LINKED"
    case providerNotLinked = "PROVIDER_NOT_LINKED"
    case lastProvider = "LAST_PROVIDER"
    case sessionInvalid = "SESSION_INVALID"
    case reauthenticationRequired = "REAUTHENTICATION_REQUIRED"
    case conflict = "CONFLICT"
    case purchaseBelongsToOtherAccount = "PURCHASE_BELONGS_TO_OTHER_ACCOUNT"
    case invalidPurchase = "INVALID_PURCHASE"
    case accountDisabled = "ACCOUNT_DISABLED"
    case identitySuspended = "IDENTITY_SUSPENDED"
    case upstreamUnavailable = "UPSTREAM_UNAVAILABLE"

    /// Used only for Function URL answers; a direct invoke always gets the envelope.
    package var httpStatus: Int {
        switch self {
        case .invalidRequest, .unsupportedProvider, .invalidPurchase: return 400
        case .invalidToken, .tokenExpired, .sessionInvalid, .reauthenticationRequired: return 401
        case .accountNotFound, .providerNotLinked: return 404
        case .accountAlreadyExists, .providerAlreadyLinked, .lastProvider, .conflict, .purchaseBelongsToOtherAccount:
            return 409
        case .accountDisabled, .identitySuspended: return 403
        case .upstreamUnavailable: return 503
        }
    }
}

/// An expected failure: answered in the envelope, never through the Runtime API error endpoint.
package struct ServiceError: Error, Sendable, Equatable {
    package let code: ErrorCode
    package let message: String

    package init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

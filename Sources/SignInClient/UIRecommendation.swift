/// What the UI does about an error.
public enum UIRecommendation: Sendable, Equatable {
    /// Show the sign-in screen (the session ended, or the provider's token was refused).
    case signInAgain
    /// Ask for a fresh provider sign-in, then repeat the call (link, unlink, delete, sign out others).
    case reauthenticateThenRetry
    /// A transient failure: try again with backoff; the session is kept.
    case retryLater
    /// Something the user must read and act on.
    case tellUser(UserNotice)
    /// A bug in the app's call (a wrong field, a provider this deployment does not accept).
    case fixTheCall

    init(_ code: ErrorCode) {
        switch code {
        case .invalidRequest, .unsupportedProvider: self = .fixTheCall
        case .invalidToken, .tokenExpired, .sessionInvalid: self = .signInAgain
        case .reauthenticationRequired: self = .reauthenticateThenRetry
        case .accountNotFound: self = .tellUser(.noAccountForThisSignIn)
        case .accountAlreadyExists: self = .tellUser(.accountAlreadyExists)
        case .providerAlreadyLinked: self = .tellUser(.providerBelongsToAnotherAccount)
        case .providerNotLinked: self = .tellUser(.providerNotLinked)
        case .lastProvider: self = .tellUser(.lastProvider)
        case .purchaseBelongsToOtherAccount: self = .tellUser(.purchaseBelongsToOtherAccount)
        case .invalidPurchase: self = .tellUser(.purchaseNotValid)
        case .accountDisabled: self = .tellUser(.accountDisabled)
        case .identitySuspended: self = .tellUser(.identitySuspended)
        default: self = .retryLater  // CONFLICT, UPSTREAM_UNAVAILABLE, and codes newer than this client
        }
    }
}

/// What the app sends to the three functions: one type per function, the fields of the contract's
/// events (docs/API.md). Optional fields that are nil are left out of the JSON.
public enum Provider: String, Codable, Sendable, Hashable, CaseIterable {
    case apple, google, firebase
}

/// `auth-signin`'s `intent`: `auto` creates an account when none exists.
public enum SignInIntent: String, Codable, Sendable {
    case signin, signup, auto
}

/// The three functions; a transport maps each to a Function URL or a Lambda function name.
public enum SignInFunction: String, Sendable, Hashable, CaseIterable {
    case signin = "auth-signin"
    case refresh = "auth-refresh"
    case link = "auth-link"
}

struct SignInRequest: Encodable, Sendable {
    var provider: Provider
    var idToken: String
    var intent: SignInIntent
    var nonce: String?
    var fullName: String?
    var device: String?
}

/// `auth-refresh`'s event: `refresh`, `signout`, `list`, `signoutOthers`, `signoutSession`.
struct SessionRequest: Encodable, Sendable {
    enum Action: String, Encodable, Sendable {
        case refresh, signout, list, signoutOthers, signoutSession
    }
    var refreshToken: String
    var action: Action
    var sessionId: String?
}

/// `auth-link`'s event: `link`, `unlink`, `delete`, `claimPurchase`.
struct AccountRequest: Encodable, Sendable {
    enum Action: String, Encodable, Sendable {
        case link, unlink, delete, claimPurchase
    }
    var refreshToken: String
    var action: Action
    var provider: Provider?
    var idToken: String?
    var nonce: String?
    var authorizationCode: String?
    var signedTransaction: String?

    init(
        refreshToken: String, action: Action, provider: Provider? = nil, idToken: String? = nil,
        nonce: String? = nil, authorizationCode: String? = nil, signedTransaction: String? = nil
    ) {
        self.refreshToken = refreshToken
        self.action = action
        self.provider = provider
        self.idToken = idToken
        self.nonce = nonce
        self.authorizationCode = authorizationCode
        self.signedTransaction = signedTransaction
    }
}

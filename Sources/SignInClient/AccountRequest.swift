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

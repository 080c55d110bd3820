/// `auth-refresh`'s event: `refresh`, `signout`, `list`, `signoutOthers`, `signoutSession`.
struct SessionRequest: Encodable, Sendable {
    enum Action: String, Encodable, Sendable {
        case refresh, signout, list, signoutOthers, signoutSession
    }
    var refreshToken: String
    var action: Action
    var sessionId: String?
}

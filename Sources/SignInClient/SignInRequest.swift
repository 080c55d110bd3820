struct SignInRequest: Encodable, Sendable {
    var provider: Provider
    var idToken: String
    var intent: SignInIntent
    var nonce: String?
    var fullName: String?
    var device: String?
}

public struct User: Codable, Sendable, Equatable {
    public var serviceUserID: String
    public var displayName: String?
    public var email: String?
    public var createdAt: String?
    public var lastUpdated: String?
    public var primaryProvider: String?
    public var providers: [LinkedProvider]
    public var subscription: Subscription?
}

extension User {
    /// The Apple user identifier (`sub`) the account's Apple link has now, nil without one: what
    /// `ASAuthorizationAppleIDProvider.getCredentialState(forUserID:)` asks about. It changes when
    /// the app moves to another Apple developer team and the server re-keys the link (a Sign in
    /// with Apple carrying `transfer_sub`, or the operator's `apple-transfer complete`); the
    /// session's user follows it at the next answer. Key nothing of your own on it:
    /// `serviceUserID` never changes.
    public var appleUserID: String? { providers.first { $0.type == Provider.apple.rawValue }?.id }
}

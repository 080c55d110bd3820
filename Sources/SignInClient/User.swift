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

public struct LinkedProvider: Codable, Sendable, Equatable {
    public var type: String
    public var id: String
    public var email: String?
    public var isPrimary: Bool
    public var linkedAt: String?
    public var lastUsed: String?
}

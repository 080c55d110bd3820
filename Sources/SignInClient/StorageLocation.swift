/// Where the user's files go: `prefix` is `users/<uuid>/`, the only place the credentials reach.
public struct StorageLocation: Codable, Sendable, Equatable {
    public var bucket: String
    public var region: String
    public var prefix: String
}

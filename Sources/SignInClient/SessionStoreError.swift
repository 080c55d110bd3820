/// A store's own failure, with no stored content in its message.
public struct SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

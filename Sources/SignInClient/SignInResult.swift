/// What `signIn` returns.
public struct SignInResult: Sendable {
    public var isNewUser: Bool
    public var user: User
    public var storage: StorageLocation
}

/// auth-link `delete`. `purge` is `complete` or `pending` (the scheduled run finishes it);
/// `appleTokensRevoked` is nil when the account had no Apple identity or revocation is off.
public struct DeletionAnswer: Decodable, Sendable {
    public var deleted: Bool
    public var serviceUserID: String
    public var purge: String
    public var appleTokensRevoked: Bool?
}

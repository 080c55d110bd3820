/// auth-link `link` / `unlink`: `linked`, `already_linked` or `unlinked`, and the user after it.
public struct LinkAnswer: Decodable, Sendable {
    public var status: String
    public var user: User
}

/// `auth-signin`'s `intent`: `auto` creates an account when none exists.
public enum SignInIntent: String, Codable, Sendable {
    case signin, signup, auto
}

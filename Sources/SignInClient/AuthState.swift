/// The auth state an app observes (`SignInSession.authStates()`).
public enum AuthState: Sendable, Equatable {
    /// A session exists: at launch (from the store) or after a sign-in.
    case signedIn(User)
    /// The session was refreshed (new credentials, rotated token, fresh user).
    case refreshed(User)
    case signedOut(SignOutReason)
    /// The store cannot be read now (a locked Keychain before first unlock): neither in nor out.
    case unknown
}

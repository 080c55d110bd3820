public enum SignOutReason: Sendable, Equatable {
    /// Nothing stored at launch.
    case noSession
    /// `signOut()` in this process, or the main app signed out (seen by a read-only extension).
    case userSignedOut
    /// `SESSION_INVALID` to a refresh (to any other action, once a refresh confirmed it): expired,
    /// signed out elsewhere, revoked after token reuse, identity unlinked. Never time, a lost
    /// answer or a process death (contract v5).
    case sessionEnded
    /// `ACCOUNT_NOT_FOUND` on a session: the account is gone.
    case accountNotFound
    /// `ACCOUNT_DISABLED`: an operator disabled the account.
    case accountDisabled
    /// `delete()` succeeded.
    case accountDeleted
    /// `unlink` removed the identity this session signed in with (its sessions end).
    case signInIdentityUnlinked

    init?(_ error: SignInError) {
        switch error.code {
        case .sessionInvalid?: self = .sessionEnded
        case .accountNotFound?: self = .accountNotFound
        case .accountDisabled?: self = .accountDisabled
        default: return nil
        }
    }
}

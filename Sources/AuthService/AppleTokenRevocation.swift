import PlatformSupport

/// Sign in with Apple token revocation at account deletion (docs/API.md, auth-link `delete`).
final class AppleTokenRevocation {
    /// Whether the tokens the code yields were revoked. Never throws: a failure at Apple never
    /// blocks the deletion.
    func revoke(code: String, subject: String, deadline: Deadline) -> Bool { false }
}

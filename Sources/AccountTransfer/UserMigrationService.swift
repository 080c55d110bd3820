import AccountModel
import PlatformSupport

/// Sign in with Apple's user-migration endpoint (`/auth/usermigrationinfo`) as the app-transfer
/// runs see it (contract v4): authctl adapts `SignInWithApple`'s client to it; tests and the
/// simulation give their own. Each call asks about a batch; answers come back in the same order.
package protocol UserMigrationService: AnyObject {
    /// The sending team's side: each Apple `sub`'s `transfer_sub` for the recipient team `target`.
    func transferSubs(_ subs: [String], target: String, deadline: Deadline) -> [UserMigrationAnswer<String>]
    /// The recipient team's side: each `transfer_sub`'s new team-scoped `sub` and email.
    func exchange(_ transferSubs: [String], deadline: Deadline) -> [UserMigrationAnswer<MigratedUser>]
}

/// Apple's answer about one user.
package enum UserMigrationAnswer<Value: Sendable>: Sendable {
    case value(Value)
    /// Apple refused this user: the OAuth error it named (`invalid_request` usually means the
    /// user revoked the app's Sign in with Apple). The run goes on with the next one.
    case refused(String)
    /// Apple could not be asked (429 or 5xx after the retries, its token refused, the deadline):
    /// why, in a few words. The run stops before this user, to continue later.
    case unavailable(String)
}

/// A user as the recipient team sees them after the transfer.
package struct MigratedUser: Sendable, Equatable {
    package var sub: String
    package var email: String?
    package var isPrivateEmail: Bool?

    package init(sub: String, email: String?, isPrivateEmail: Bool?) {
        self.sub = sub
        self.email = email
        self.isPrivateEmail = isPrivateEmail
    }
}

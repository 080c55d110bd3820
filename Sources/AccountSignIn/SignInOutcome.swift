import AccountSessions
import AccountStore

package struct SignInOutcome: Sendable {
    package var isNewUser: Bool
    package var account: Account
    package var session: IssuedSession
    /// This sign-in moved the account's Apple identity to the recipient team's `sub` (an app
    /// transfer's re-key, contract v4): audited and counted.
    package var rekeyed = false
}

import AccountDeletion
import AccountEvents
import AccountModel
import AccountSessions
import AccountStore
import AuthService
import PlatformSupport

/// auth-link `delete`: delete the signed-in account (docs/API.md, auth-link `delete`). The
/// account domain commits, unmaps and purges; then, when the account had an Apple identity and
/// revocation is configured, the app's fresh `authorizationCode` is exchanged and the tokens it
/// yields are revoked. The code is spent last, so a deletion that fails keeps it unspent.
package struct DeleteAction: Action {
    package static let name = "delete"
    /// Time kept back from the purge for what follows it: saving the deletion record, and Apple's
    /// two endpoints when there is a code to exchange.
    package static let reserveMilliseconds: Int64 = 1_000
    package static let appleReserveMilliseconds: Int64 = 4_000

    package let refreshToken: String
    package let authorizationCode: String?

    package init(_ request: Request) throws(ServiceError) {
        refreshToken = try request.refreshToken()
        authorizationCode = try request.optionalString("authorizationCode", maxBytes: 1024).flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let willRevoke = authorizationCode != nil && d.revokesAppleTokens
        let reserve = Self.reserveMilliseconds + (willRevoke ? Self.appleReserveMilliseconds : 0)
        let outcome = try d.deletion.deleteAccount(
            token: refreshToken, purgeUntil: deadline.earlier(by: reserve), deadline: deadline)
        var revoked: Bool?
        var note: String?
        if let subject = outcome.appleSubject, d.revokesAppleTokens {
            (revoked, note) = (false, "no authorization code")
            if let code = authorizationCode {
                if let revocation = d.appleRevocation(deadline: deadline) {
                    (revoked, note) = revocation.revoke(code: code, subject: subject, deadline: deadline)
                } else {
                    note = "key unavailable"
                }
            }
        }
        return .deleted(outcome, appleTokensRevoked: revoked, appleOutcome: note)
    }
}

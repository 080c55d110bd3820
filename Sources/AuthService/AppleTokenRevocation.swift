import PlatformSupport
import SignInWithApple
import TokenVerification

/// Sign in with Apple token revocation at account deletion (docs/API.md, auth-link `delete`; App
/// Store Review Guideline 5.1.1(v)): the app's fresh authorization code is exchanged at Apple's
/// `/auth/token`, the `id_token` Apple returns must name the account's Apple identity (verified
/// like any Apple ID token, so a code from another Apple ID revokes nothing), and the tokens the
/// exchange yielded are revoked at `/auth/revoke`.
package final class AppleTokenRevocation {
    package let client: AppleTokenClient
    package let verifier: TokenVerifier

    package init(client: AppleTokenClient, verifier: TokenVerifier) {
        self.client = client
        self.verifier = verifier
    }

    /// Whether the tokens were revoked. Never throws: a failure at Apple never blocks the
    /// deletion, which has already happened when this runs; the reason goes to the log only as
    /// a word (`outcome`), never a code or token.
    package func revoke(code: String, subject: String, deadline: Deadline) -> (revoked: Bool, outcome: String) {
        do throws(AppleTokenError) {
            let grant = try client.exchange(code: code, deadline: deadline)
            let identity: VerifiedIdentity
            do throws(TokenError) {
                identity = try verifier.verify(grant.idToken, provider: .apple, nonce: nil, deadline: deadline)
            } catch {
                return (false, "id_token refused")
            }
            guard identity.subject == subject else { return (false, "code of another Apple ID") }
            try client.revoke(grant, deadline: deadline)
            return (true, "revoked")
        } catch {
            return (false, error.description)
        }
    }
}

import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountOperator
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import AccountTransfer
import PlatformSupport
import StrictJSON
import TokenVerification

/// A service over the in-memory S3 with a clock the test moves by hand.
package final class AccountFixture: @unchecked Sendable {
    package let backend: DirectBackend
    package var nowMs: Int64 = 1_800_000_000_000
    package var settings = AccountSettings(
        bucket: "photo-identities", region: "us-east-1", userRoleARN: "arn:aws:iam::123456789012:role/user-access")

    package init(versioned: Bool = true, grace: Int64 = 30) {
        backend = DirectBackend(versioned: versioned)
        settings.refreshReuseGraceSeconds = grace
    }

    package var s3: SimulatedS3 { backend.s3 }

    package var service: AccountFlows {
        AccountFlows(
            backend: backend, settings: settings,
            environment: AccountEnvironment(
                now: { [unowned self] in nowMs }, randomBytes: { SecureRandom.bytes($0) }, pause: { _ in }))
    }

    package static let apple = VerifiedIdentity(
        provider: .apple, subject: "001234.abc.0001", email: "a@privaterelay.appleid.com", emailVerified: true,
        isPrivateEmail: true, realUserStatus: 2)
    package static func google(_ sub: String = "104729385610293847561") -> VerifiedIdentity {
        VerifiedIdentity(provider: .google, subject: sub, email: "ada@gmail.com", emailVerified: true, name: "Ada L")
    }

    package func signUp(
        _ identity: VerifiedIdentity = AccountFixture.apple, device: String? = nil
    ) throws(AccountError) -> SignInOutcome {
        try service.signIn.signIn(identity: identity, intent: .auto, fullName: "Ada", device: device, deadline: .none)
    }

    package func providers(_ uuid: String) -> ProvidersDocument? {
        s3.json(AccountKeys.providers(uuid)).flatMap(ProvidersDocument.init(json:))
    }

    package func session(_ token: RefreshToken) -> SessionRecord? {
        s3.json(AccountKeys.session(token.serviceUserID, token.sessionID)).flatMap(SessionRecord.init(json:))
    }

    package func linkID(of identity: VerifiedIdentity) -> String? {
        s3.current(AccountKeys.identity(identity.provider, identity.subject))?.metadata.first {
            $0.0 == AccountKeys.linkIDMetadata
        }?.1
    }

    /// The same token with one bit of its secret flipped: real account and session id, wrong secret.
    package static func forge(_ token: RefreshToken) -> String {
        var raw = Base64.urlDecode(token.value.dropFirst(RefreshToken.prefix.count))!
        raw[63] ^= 0x01
        return RefreshToken.prefix + Base64.urlEncode(raw)
    }
}

/// The name of the AccountError case `body` throws (nil when it succeeds), for `#expect`.
package func accountError(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as AccountError {
        return String("\(error)".prefix { $0 != "(" })
    } catch {
        return "not an AccountError: \(error)"
    }
}

import AWSClients
import AccountModel
import AccountStore
import PlatformSupport
import StrictJSON

/// The sessions: issue, refresh, list, the sign-outs, revocation, and the token check every other
/// action of a signed-in user starts with (`authenticate`). Refresh checks the token against its
/// record, then asks STS for credentials, and only then writes the rotated record (`If-Match`), so
/// a refresh that fails has spent nothing; a lost answer to that write is recognised by re-reading
/// it. Over the store alone.
package struct SessionFlow {
    package let store: AccountStore

    package init(store: AccountStore) {
        self.store = store
    }

    /// The credentials request for `uuid`: the user role with the per-user session policy.
    package func assumeRoleRequest(_ uuid: String) throws(AccountError) -> AssumeRoleRequest {
        let policy: String
        do throws(CredentialsPolicy.PolicyError) {
            policy = try CredentialsPolicy.document(
                bucket: store.settings.bucket, uuid: uuid, region: store.settings.region)
        } catch {
            throw .internalError("session policy: \(error)")
        }
        return AssumeRoleRequest(
            roleARN: store.settings.userRoleARN, sessionName: "user-\(uuid)",
            durationSeconds: store.settings.credentialsDurationSeconds,
            policy: policy, sourceIdentity: nil, tags: [])
    }

    /// A new refresh token (its secret from the store.environment's CSPRNG).
    package func newToken(_ uuid: String, sessionID: String) -> RefreshToken {
        RefreshToken.issue(
            serviceUserID: uuid, sessionID: sessionID, secret: store.environment.randomBytes(RefreshToken.secretBytes))
    }

    package func issued(
        _ credentials: TemporaryCredentials, _ token: RefreshToken, _ record: SessionRecord
    ) -> IssuedSession {
        IssuedSession(
            credentials: credentials, refreshToken: token, refreshTokenExpiresAtMs: record.expiresAtMs,
            storagePrefix: AccountKeys.userPrefix(token.serviceUserID))
    }

    package func parseToken(_ text: String) throws(AccountError) -> RefreshToken {
        guard let token = RefreshToken.parse(text), UUIDText.isCanonical(token.serviceUserID) else {
            throw .sessionInvalid(reason: "malformed")
        }
        return token
    }
}

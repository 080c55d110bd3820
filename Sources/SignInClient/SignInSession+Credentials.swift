import Foundation

extension SignInSession {
    /// STS credentials for the user's prefix: the cached ones while they stay valid for more than
    /// `credentialsMargin`, else the result of the one refresh (joined if already in flight).
    /// Cheap when cached: aws-sdk-swift asks on every request attempt.
    public func credentials(forceRefresh: Bool = false) async throws(SignInError) -> TemporaryCredentials {
        try await validSession(force: forceRefresh).credentials
    }

    /// After S3 answered `ExpiredToken` (or 403 with credentials that should have been valid: a
    /// wrong device clock): refresh unless someone already replaced these credentials, and return
    /// the current ones. Many failing uploads at once make one refresh, not one each.
    public func credentials(replacing stale: TemporaryCredentials) async throws(SignInError) -> TemporaryCredentials {
        try await validSession(force: true, replacing: stale.accessKeyId).credentials
    }

    /// `serverTime` (a time on the server's clock, such as `TemporaryCredentials.expiration`) on
    /// this device's clock, by the offset measured at the last answer. For code that judges expiry
    /// with the device's clock: aws-sdk-swift's `AWSCredentialIdentity.expiration` (a device clock
    /// hours ahead would otherwise see fresh credentials as expired, one behind keep expired ones).
    public func deviceTime(forServerTime serverTime: Date) -> Date {
        try? loadIfNeeded()
        return serverTime.addingTimeInterval(-(session?.serverClockOffset ?? 0))
    }

    /// Runs `body` with the current credentials; if it throws an error `isExpiredCredentials`
    /// recognises (S3's `ExpiredToken`), refreshes once and runs it again. Other errors pass through.
    public func withCredentials<T: Sendable>(
        retryingOnceIf isExpiredCredentials: @Sendable (any Error) -> Bool,
        _ body: @Sendable (TemporaryCredentials) async throws -> T
    ) async throws -> T {
        let first = try await credentials()
        do {
            return try await body(first)
        } catch  where isExpiredCredentials(error) {
            return try await body(try await credentials(replacing: first))
        }
    }
}

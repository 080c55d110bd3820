import AWSClientRuntime
import Foundation
import SignInClient
import SmithyIdentity
import Testing

@testable import SignInAWSAdapter

/// Defect 9 of issue 24: the adapter compiles against smithy-swift's and aws-sdk-swift's exact
/// declarations (Tests/Mirrors), and the SDK's way of calling it, through the protocol's
/// existential, reaches the adapter's own `getIdentity`, not the protocol extension's default
/// (which in a real app recurses forever; in the mirror it throws).
@Suite struct SignInCredentialIdentityResolverTests {
    struct OneSession: SignInTransport {
        func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
            let expiration = Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())
            let body: [String: Any] = [
                "success": true,
                "meta": ["requestId": "r", "timestamp": Date().formatted(Date.ISO8601FormatStyle())],
                "data": [
                    "isNewUser": true, "refreshToken": "rt", "refreshTokenExpiresAt": expiration,
                    "credentials": [
                        "accessKeyId": "ASIA", "secretAccessKey": "secret", "sessionToken": "token",
                        "expiration": expiration,
                    ],
                    "storage": ["bucket": "b", "region": "us-east-1", "prefix": "users/u/"],
                    "user": [
                        "serviceUserID": "6f1c2a4e-0000-4000-8000-000000000001", "createdAt": expiration,
                        "lastUpdated": expiration, "primaryProvider": "apple", "providers": [],
                        "subscription": ["tier": "free", "storageLimit": 1, "storageUsed": 0],
                    ],
                ],
            ]
            return TransportAnswer(statusCode: 200, body: try JSONSerialization.data(withJSONObject: body))
        }
    }

    @Test func theSDKsExistentialCallReachesTheAdapter() async throws {
        let session = SignInSession(
            configuration: SignInConfiguration(transport: OneSession(), store: InMemorySessionStore()))
        _ = try await session.signIn(with: .apple, idToken: "id")
        let resolver: any AWSCredentialIdentityResolver = SignInCredentialIdentityResolver(session: session)
        let identity = try await resolver.getIdentity(identityProperties: nil)
        #expect(identity.accessKey == "ASIA" && identity.secret == "secret" && identity.sessionToken == "token")
        #expect(identity.expiration != nil)
    }

    /// The SDK compares `expiration` with the device's clock; the session's credentials carry the
    /// server's. With the device two hours ahead, the server's expiration (an hour from now on the
    /// server) would read as an hour ago, and two hours behind, as three hours away.
    @Test(arguments: [7200.0, -7200.0]) func theExpirationIsOnTheDevicesClock(deviceAhead: Double) async throws {
        let session = SignInSession(
            configuration: SignInConfiguration(
                transport: OneSession(), store: InMemorySessionStore(),
                clock: { Date().addingTimeInterval(deviceAhead) }))
        _ = try await session.signIn(with: .apple, idToken: "id")
        let identity = try await SignInCredentialIdentityResolver(session: session).getIdentity(identityProperties: nil)
        let left = try #require(identity.expiration).timeIntervalSince(Date().addingTimeInterval(deviceAhead))
        #expect(abs(left - 3600) < 60, "expires in \(left) s by the device's clock")
        #expect(try await session.credentials().expiration.timeIntervalSinceNow > 3500)  // the server's, kept
    }

    struct S3Error: AWSServiceError, Error {
        var typeName: String?
        var message: String?
        var requestID: String?
    }

    @Test func expiredTokenIsRecognisedByItsServiceErrorCode() {
        #expect(SignInCredentialIdentityResolver.isExpiredToken(S3Error(typeName: "ExpiredToken")))
        #expect(!SignInCredentialIdentityResolver.isExpiredToken(S3Error(typeName: "AccessDenied")))
    }
}

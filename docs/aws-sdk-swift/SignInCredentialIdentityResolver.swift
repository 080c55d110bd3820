// Copy this file into your app target (it is NOT part of the SignInClient package and is NOT
// compiled by this repository: aws-sdk-swift is not available on the machine that builds it; it was
// written against smithy-swift's `SmithyIdentity.AWSCredentialIdentityResolver` and
// `SmithyIdentityAPI.IdentityResolver`, read at smithy-swift 0.246.0 / aws-sdk-swift 1.7.85).
//
// Your app's Package.swift / Xcode project: aws-sdk-swift's `AWSS3` product (it brings smithy-swift's
// `Smithy` and `SmithyIdentity` modules) and this package's `SignInClient`.
//
//     let resolver = SignInCredentialIdentityResolver(session: session)
//     let config = try await S3Client.S3ClientConfig(awsCredentialIdentityResolver: resolver, region: storage.region)
//     let s3 = S3Client(config: config)
//
// Always pass the resolver: the default chain (environment, profile, IMDS) is useless on a phone.
// The SDK asks for an identity on EVERY request attempt and keeps no cache, so `getIdentity` is a
// cached read of the session's credentials (refreshed within `credentialsMargin`, 5 minutes by
// default, joining the one refresh in flight). The SDK never retries S3's `ExpiredToken`: wrap
// calls in `session.withCredentials(retryingOnceIf: SignInCredentialIdentityResolver.isExpiredToken)`
// or see `putRetryingOnExpiredToken` below.
import Foundation
import Smithy
import SmithyIdentity
import SignInClient
import AWSS3

public struct SignInCredentialIdentityResolver: AWSCredentialIdentityResolver {
    public let session: SignInSession

    public init(session: SignInSession) {
        self.session = session
    }

    // The exact requirement of `IdentityResolver` (IdentityT == AWSCredentialIdentity). A different
    // signature would silently fall back to the protocol extension's default, which wraps `self` and
    // calls `getIdentity` again: an endless recursion.
    public func getIdentity(identityProperties: Smithy.Attributes?) async throws -> AWSCredentialIdentity {
        let credentials = try await session.credentials()
        // Note the initializer's order: expiration comes before sessionToken.
        return AWSCredentialIdentity(
            accessKey: credentials.accessKeyId,
            secret: credentials.secretAccessKey,
            accountID: nil,
            expiration: credentials.expiration,
            sessionToken: credentials.sessionToken
        )
    }

    /// S3 answered that the credentials expired (a suspended app, a wrong device clock): refresh once.
    public static func isExpiredToken(_ error: any Error) -> Bool {
        if let service = error as? any AWSServiceError, service.errorCode == "ExpiredToken" { return true }
        return String(describing: error).contains("ExpiredToken")
    }
}

/// A PUT that survives expired credentials: on `ExpiredToken` it refreshes the session once (joining
/// any refresh in flight; many failing uploads make one refresh) and retries once.
public func putRetryingOnExpiredToken(
    _ s3: S3Client, session: SignInSession, bucket: String, key: String, body: Data
) async throws {
    // The credentials the resolver will hand the SDK for this attempt (a cached read).
    let used = try await session.credentials()
    do {
        _ = try await s3.putObject(input: PutObjectInput(body: .data(body), bucket: bucket, key: key))
    } catch where SignInCredentialIdentityResolver.isExpiredToken(error) {
        // Refreshes only if `used` are still the current ones: one refresh for many failures.
        _ = try await session.credentials(replacing: used)
        _ = try await s3.putObject(input: PutObjectInput(body: .data(body), bucket: bucket, key: key))
    }
}

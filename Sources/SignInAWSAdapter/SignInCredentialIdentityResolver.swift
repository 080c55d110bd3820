// Copy this file into your app target, which depends on aws-sdk-swift's `AWSS3` (it brings
// smithy-swift's `Smithy`, `SmithyIdentity` and `AWSClientRuntime`) and on this package's
// `SignInClient`. This repository builds it on every run, unchanged, against a mirror of exactly
// the smithy-swift / aws-sdk-swift declarations it uses (Tests/Mirrors, each file naming its
// source), and a test calls `getIdentity` through the protocol's existential: a drifted signature
// or a missing import fails here, not in your app (docs/client.md, "S3 uploads with aws-sdk-swift").
//
//     let resolver = SignInCredentialIdentityResolver(session: session)
//     let config = try await S3Client.S3ClientConfig(awsCredentialIdentityResolver: resolver, region: storage.region)
//     let s3 = S3Client(config: config)
//     try await session.withCredentials(retryingOnceIf: SignInCredentialIdentityResolver.isExpiredToken) { _ in
//         try await s3.putObject(input: PutObjectInput(body: .data(jpeg), bucket: storage.bucket, key: key))
//     }
//
// Always pass the resolver: the default chain (environment, profile, IMDS) is useless on a phone.
// The SDK asks for an identity on EVERY request attempt and keeps no cache, so `getIdentity` is a
// cached read of the session's credentials (refreshed within `credentialsMargin`, 5 minutes by
// default, joining the one refresh in flight), their expiration moved onto the device's clock (the
// SDK compares it with the device's: a clock hours ahead would see them expired at every request,
// one behind would keep expired ones). The SDK never retries S3's `ExpiredToken`:
// `withCredentials(retryingOnceIf:)` refreshes once (many failing uploads make one refresh) and
// runs the body again.
import AWSClientRuntime
import Foundation
import SignInClient
import Smithy
import SmithyIdentity

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
        // The SDK judges `expiration` with the device's clock; the credentials' is the server's.
        let expiration = await session.deviceTime(forServerTime: credentials.expiration)
        // The initializer's order: expiration comes before sessionToken.
        return AWSCredentialIdentity(
            accessKey: credentials.accessKeyId,
            secret: credentials.secretAccessKey,
            accountID: nil,
            expiration: expiration,
            sessionToken: credentials.sessionToken
        )
    }

    /// S3 answered that the credentials expired (a suspended app, a wrong device clock): refresh once.
    public static func isExpiredToken(_ error: any Error) -> Bool {
        if let service = error as? any AWSServiceError, service.errorCode == "ExpiredToken" { return true }
        return String(describing: error).contains("ExpiredToken")
    }
}

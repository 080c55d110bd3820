// Mirror of smithy-lang/smithy-swift 0.246.0 (d55aa01), Sources/SmithyIdentity/AWSCredentialIdentityResolver.swift:
// the protocol exactly, and the public extension's default `getIdentity` with its exact signature.
// The real default wraps `self` in CustomAWSCredentialIdentityResolver for CRT, which calls
// `getIdentity` on `self` again: a conformer whose own method does not match the requirement
// exactly silently gets this default and recurses forever. Here the default throws instead, so
// Tests/SignInAWSAdapterTests sees a drifted signature. (The @_spi CRT extension is left out.)

import struct Smithy.Attributes
import protocol SmithyIdentityAPI.IdentityResolver

/// A type that can provide credentials for authenticating with an AWS service
public protocol AWSCredentialIdentityResolver: IdentityResolver, Sendable where IdentityT == AWSCredentialIdentity {}

public extension AWSCredentialIdentityResolver {

    func getIdentity(identityProperties: Attributes? = nil) async throws -> AWSCredentialIdentity {
        throw MirroredDefaultGetIdentityCalled()
    }
}

/// Mirror only: the protocol extension's default ran (in an app: an endless recursion).
public struct MirroredDefaultGetIdentityCalled: Error {}

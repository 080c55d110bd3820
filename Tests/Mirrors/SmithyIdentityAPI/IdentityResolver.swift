// Mirror of smithy-lang/smithy-swift 0.246.0 (d55aa01), Sources/SmithyIdentityAPI/IdentityResolver.swift,
// exactly.

import struct Smithy.Attributes

// Base protocol for all identity provider types
public protocol IdentityResolver: Sendable {
    associatedtype IdentityT: Identity

    func getIdentity(identityProperties: Attributes?) async throws -> IdentityT
}

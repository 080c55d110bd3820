// Mirror of smithy-lang/smithy-swift 0.246.0 (d55aa01), Sources/SmithyIdentityAPI/Identity.swift,
// exactly. Module SmithyIdentityAPIMirror, imported as `SmithyIdentityAPI` (-module-alias).

import struct Foundation.Date
import struct Smithy.Attributes

// Base protocol for all identity types
public protocol Identity: Sendable {
    var expiration: Date? { get }
    var properties: Attributes { get }
}

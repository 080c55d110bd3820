// Mirror of smithy-lang/smithy-swift 0.246.0 (d55aa01), Sources/SmithyIdentity/AWSCredentialIdentity.swift:
// the declarations exactly (the initializer's argument order: expiration before sessionToken).
// Module SmithyIdentityMirror, imported as `SmithyIdentity` (-module-alias).

import struct Foundation.Date
import struct Smithy.Attributes
import protocol SmithyIdentityAPI.Identity

/// A type representing AWS credentials for authenticating with an AWS service
public struct AWSCredentialIdentity: Identity {
    public let accessKey: String
    public let secret: String
    public let accountID: String?
    public let sessionToken: String?
    public let expiration: Date?
    public let properties: Attributes

    public init(
        accessKey: String,
        secret: String,
        accountID: String? = nil,
        expiration: Date? = nil,
        sessionToken: String? = nil,
        properties: Attributes = Attributes()
    ) {
        self.accessKey = accessKey
        self.secret = secret
        self.accountID = accountID
        self.expiration = expiration
        self.sessionToken = sessionToken
        self.properties = properties
    }
}

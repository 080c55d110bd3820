// Mirror of awslabs/aws-sdk-swift (commit 53840ea), Sources/Core/AWSClientRuntime/Sources/AWSClientRuntime/Errors/AWSServiceError.swift,
// exactly (its ModeledError import is unused here). Module AWSClientRuntimeMirror, imported as
// `AWSClientRuntime` (-module-alias).

import protocol ClientRuntime.ServiceError

/// Provides properties for an error returned by an AWS service.
public protocol AWSServiceError: ServiceError {

    /// The error code for this error, if known.
    ///
    /// The location of the error code within the response is defined on the Smithy protocol in use.
    var errorCode: String? { get }

    /// The Request ID for a request made to an AWS service, if available.
    var requestID: String? { get }
}

extension ServiceError {

    /// Provides the modeled error's type name as a instance property.
    ///
    /// Provided to allow for conformance with `AWSServiceError`.
    public var errorCode: String? { typeName }
}

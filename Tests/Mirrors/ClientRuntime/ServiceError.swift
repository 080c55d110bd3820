// Mirror of smithy-lang/smithy-swift 0.246.0 (d55aa01), Sources/ClientRuntime/Networking/ServiceError.swift:
// the protocol exactly (its internal extension is left out). Module ClientRuntimeMirror, imported
// as `ClientRuntime` (-module-alias).

/// Provides properties for an error that was the result of a response from the service.
public protocol ServiceError {

    /// The type name, if known, for the error that was received.
    var typeName: String? { get }

    /// The message for this error, if one was received.
    var message: String? { get set }
}

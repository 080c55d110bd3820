import StrictJSON

/// The one shape every failure is reported in: `errorType` and `errorMessage`, posted as
/// `{"errorType","errorMessage","stackTrace":[]}` with the type also in the
/// `Lambda-Runtime-Function-Error-Type` header (init errors, handler errors, oversized answers).
struct Diagnostic: Equatable, Sendable {
    let errorType: String
    let errorMessage: String

    init(errorType: String, errorMessage: String) {
        self.errorType = errorType
        self.errorMessage = errorMessage
    }

    /// A `LambdaFunctionError` names itself. Any other error is named by its type only, under
    /// `fallbackType`: its description could carry input (a token, a field of the event), and
    /// what is posted here reaches the caller and the logs.
    init(_ error: any Error, fallbackType: String) {
        if let named = error as? any LambdaFunctionError {
            self.init(errorType: named.errorType, errorMessage: named.errorMessage)
        } else {
            self.init(errorType: fallbackType, errorMessage: String(describing: type(of: error)))
        }
    }

    /// The handler's answer exceeds Lambda's synchronous payload limit; reported instead of
    /// posting an answer the Runtime API would refuse (and the caller would never see).
    static func responseTooLarge(bytes: Int, limit: Int) -> Diagnostic {
        Diagnostic(
            errorType: "Function.ResponseSizeTooLarge",
            errorMessage:
                "Response payload size (\(bytes) bytes) exceeded maximum allowed payload size (\(limit) bytes).")
    }

    /// The Runtime API answered 413 to the response itself.
    static let refusedAsTooLarge = Diagnostic(
        errorType: "Function.ResponseSizeTooLarge",
        errorMessage: "The Runtime API refused the response as too large.")

    /// The body the Runtime API's error endpoints take.
    var document: [UInt8] {
        JSONValue.object(
            JSONObject([
                ("errorType", .string(errorType)), ("errorMessage", .string(errorMessage)),
                ("stackTrace", .array([])),
            ])
        ).serialized()
    }
}

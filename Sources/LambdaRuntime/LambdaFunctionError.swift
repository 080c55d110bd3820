/// A handler failure with an explicit `errorType` for the Runtime API. Its `errorMessage` is
/// posted as written (any other error is reported by its type name only, see `Diagnostic`), so
/// it must not quote input.
package protocol LambdaFunctionError: Error {
    var errorType: String { get }
    var errorMessage: String { get }
}

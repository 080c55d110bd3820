import Foundation

/// The app's own Lambda client (aws-sdk-swift's `LambdaClient.invoke`, or any other): invoke the
/// named function with `payload` and return the response payload. docs/client.md shows the
/// aws-sdk-swift adapter (a few lines; the SDK is not a dependency of this package).
public protocol LambdaInvoker: Sendable {
    func invoke(functionName: String, payload: Data) async throws -> Data

    /// The same, told how long the attempt may take (the function's timeout plus the network's
    /// allowance): set the client's timeouts to at least this, never less. The default ignores it
    /// (the client's own timeouts must then be long enough).
    func invoke(functionName: String, payload: Data, timeout: TimeInterval) async throws -> Data
}

extension LambdaInvoker {
    public func invoke(functionName: String, payload: Data, timeout: TimeInterval) async throws -> Data {
        try await invoke(functionName: functionName, payload: payload)
    }
}

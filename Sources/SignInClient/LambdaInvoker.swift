import Foundation

/// The app's own Lambda client (aws-sdk-swift's `LambdaClient.invoke`, or any other): invoke the
/// named function with `payload` and return the response payload. docs/client.md shows the
/// aws-sdk-swift adapter (a few lines; the SDK is not a dependency of this package).
public protocol LambdaInvoker: Sendable {
    func invoke(functionName: String, payload: Data) async throws -> Data
}

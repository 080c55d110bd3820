import Foundation

/// Direct `Invoke` of the three functions by name (or ARN/alias) through the app's Lambda client.
public struct LambdaInvokeTransport: SignInTransport {
    public var invoker: any LambdaInvoker
    public var functionNames: [SignInFunction: String]

    public init(
        invoker: any LambdaInvoker, signIn: String = "auth-signin", refresh: String = "auth-refresh",
        link: String = "auth-link"
    ) {
        self.invoker = invoker
        self.functionNames = [.signin: signIn, .refresh: refresh, .link: link]
    }

    public func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
        let name = functionNames[function] ?? function.rawValue
        return TransportAnswer(statusCode: nil, body: try await invoker.invoke(functionName: name, payload: event))
    }
}

import Foundation

/// Direct `Invoke` of the three functions by name (or ARN/alias) through the app's Lambda client.
/// Each attempt is given the function's timeout plus `networkAllowance` (the invoker sets its
/// client's timeouts from it), as `FunctionURLTransport` bounds its own.
public struct LambdaInvokeTransport: SignInTransport {
    public var invoker: any LambdaInvoker
    public var functionNames: [SignInFunction: String]
    /// Each function's `Timeout`, by default template.yaml's (`SignInFunction.templateTimeout`).
    public var functionTimeouts: [SignInFunction: TimeInterval]
    public var networkAllowance: TimeInterval

    public init(
        invoker: any LambdaInvoker, signIn: String = "auth-signin", refresh: String = "auth-refresh",
        link: String = "auth-link", functionTimeouts: [SignInFunction: TimeInterval] = [:],
        networkAllowance: TimeInterval = 5
    ) {
        self.invoker = invoker
        self.functionNames = [.signin: signIn, .refresh: refresh, .link: link]
        self.functionTimeouts = functionTimeouts
        self.networkAllowance = networkAllowance
    }

    /// How long one attempt may take: never less than the function's timeout.
    public func attemptTimeout(for function: SignInFunction) -> TimeInterval {
        (functionTimeouts[function] ?? function.templateTimeout) + max(0, networkAllowance)
    }

    public func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
        let name = functionNames[function] ?? function.rawValue
        let payload = try await invoker.invoke(
            functionName: name, payload: event, timeout: attemptTimeout(for: function))
        return TransportAnswer(statusCode: nil, body: payload)
    }
}

import PlatformSupport

/// Everything the Runtime API told us about one invocation.
package struct LambdaContext: Sendable {
    package let requestID: String
    /// Wall-clock deadline, milliseconds since the epoch.
    package let deadlineMilliseconds: Int64
    package let invokedFunctionARN: String
    package let traceID: String?
    /// Raw JSON of the mobile SDK client context, when the caller sent one.
    package let clientContext: String?
    /// Raw JSON of the Cognito identity, when the caller had one.
    package let cognitoIdentity: String?
    package let logger: Logger

    package init(
        requestID: String, deadlineMilliseconds: Int64, invokedFunctionARN: String, traceID: String? = nil,
        clientContext: String? = nil, cognitoIdentity: String? = nil, logger: Logger
    ) {
        self.requestID = requestID
        self.deadlineMilliseconds = deadlineMilliseconds
        self.invokedFunctionARN = invokedFunctionARN
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
        self.logger = logger
    }

    init(_ invocation: Invocation, logger: Logger) {
        self.init(
            requestID: invocation.requestID, deadlineMilliseconds: invocation.deadlineMilliseconds,
            invokedFunctionARN: invocation.invokedFunctionARN, traceID: invocation.traceID,
            clientContext: invocation.clientContext, cognitoIdentity: invocation.cognitoIdentity, logger: logger)
    }

    /// Milliseconds left before Lambda stops the invocation.
    package var remainingMilliseconds: Int64 { deadlineMilliseconds - Clock.nowMilliseconds() }
}

import PlatformSupport

/// Everything the Runtime API told us about one invocation.
public struct LambdaContext: Sendable {
    public let requestID: String
    /// Wall-clock deadline, milliseconds since the epoch.
    public let deadlineMilliseconds: Int64
    public let invokedFunctionARN: String
    public let traceID: String?
    /// Raw JSON of the mobile SDK client context, when the caller sent one.
    public let clientContext: String?
    /// Raw JSON of the Cognito identity, when the caller had one.
    public let cognitoIdentity: String?
    public let logger: Logger

    public init(requestID: String, deadlineMilliseconds: Int64, invokedFunctionARN: String, traceID: String? = nil,
                clientContext: String? = nil, cognitoIdentity: String? = nil, logger: Logger)
    {
        self.requestID = requestID
        self.deadlineMilliseconds = deadlineMilliseconds
        self.invokedFunctionARN = invokedFunctionARN
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
        self.logger = logger
    }

    /// Milliseconds left before Lambda stops the invocation.
    public var remainingMilliseconds: Int64 { deadlineMilliseconds - Clock.nowMilliseconds() }
}

/// What the handler factory gets during init (before the first invocation).
public struct InitContext: Sendable {
    public let logger: Logger
    public let functionName: String
}

/// Everything `GET next` said about one invocation: the `Lambda-Runtime-*` headers and the event.
struct Invocation: Equatable {
    let requestID: String
    /// Wall-clock deadline, milliseconds since the epoch (0 when the header is missing or bad).
    let deadlineMilliseconds: Int64
    let invokedFunctionARN: String
    let traceID: String?
    let clientContext: String?
    let cognitoIdentity: String?
    let event: [UInt8]

    init(
        requestID: String, deadlineMilliseconds: Int64, invokedFunctionARN: String, traceID: String? = nil,
        clientContext: String? = nil, cognitoIdentity: String? = nil, event: [UInt8]
    ) {
        self.requestID = requestID
        self.deadlineMilliseconds = deadlineMilliseconds
        self.invokedFunctionARN = invokedFunctionARN
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
        self.event = event
    }

    /// Reads a `next` answer. Header names compare ASCII case-insensitively, the first of a
    /// repeated header wins, and an answer without a request id is a Runtime API failure (there
    /// would be nowhere to post the result).
    init(headers: [(name: String, value: String)], event: [UInt8]) throws(RuntimeAPIFailure) {
        // One pass over the headers, names compared without allocating (this runs every invocation).
        var id: String?, deadline: String?, arn: String?, trace: String?, clientContext: String?, cognito: String?
        for (name, value) in headers {
            guard name.utf8.count > 15, Invocation.hasPrefixIgnoringCase(name, "lambda-runtime-") else { continue }
            if id == nil, Invocation.equalsIgnoringCase(name, "lambda-runtime-aws-request-id") {
                id = value
            } else if deadline == nil, Invocation.equalsIgnoringCase(name, "lambda-runtime-deadline-ms") {
                deadline = value
            } else if arn == nil, Invocation.equalsIgnoringCase(name, "lambda-runtime-invoked-function-arn") {
                arn = value
            } else if trace == nil, Invocation.equalsIgnoringCase(name, "lambda-runtime-trace-id") {
                trace = value
            } else if clientContext == nil, Invocation.equalsIgnoringCase(name, "lambda-runtime-client-context") {
                clientContext = value
            } else if cognito == nil, Invocation.equalsIgnoringCase(name, "lambda-runtime-cognito-identity") {
                cognito = value
            }
        }
        guard let id, !id.isEmpty else {
            throw RuntimeAPIFailure(description: "GET next answered without Lambda-Runtime-Aws-Request-Id")
        }
        self.init(
            requestID: id, deadlineMilliseconds: deadline.flatMap { Int64($0) } ?? 0, invokedFunctionARN: arn ?? "",
            traceID: trace, clientContext: clientContext, cognitoIdentity: cognito, event: event)
    }

    /// ASCII case-insensitive comparison against a lowercase literal.
    static func equalsIgnoringCase(_ name: String, _ lower: StaticString) -> Bool {
        name.utf8.count == lower.utf8CodeUnitCount && hasPrefixIgnoringCase(name, lower)
    }

    static func hasPrefixIgnoringCase(_ name: String, _ lower: StaticString) -> Bool {
        let n = lower.utf8CodeUnitCount
        let p = lower.utf8Start
        var k = 0
        for b in name.utf8 {
            if k == n { return true }
            let folded = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            if folded != p[k] { return false }
            k += 1
        }
        return k == n
    }
}

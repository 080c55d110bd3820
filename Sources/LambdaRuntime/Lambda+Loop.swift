import PlatformSupport
import StrictJSON

/// The loop itself: one invocation at a time, each answered at the response or error endpoint
/// and logged in one line.
extension Lambda {
    /// Serves until the client has no more invocations (a test double) or the Runtime API fails.
    static func loop<C: RuntimeAPIClientProtocol, H: LambdaHandler>(
        client: C, handler: H, logger: Logger
    ) throws(RuntimeAPIFailure) {
        while let invocation = try client.next() {
            try serve(invocation, client: client, handler: handler, logger: logger)
        }
    }

    static func serve<C: RuntimeAPIClientProtocol, H: LambdaHandler>(
        _ invocation: Invocation, client: C, handler: H, logger: Logger
    ) throws(RuntimeAPIFailure) {
        let started = Clock.monotonicNanoseconds()
        // Per invocation, as Lambda's own runtimes do (the X-Ray SDKs read it there); a trace id
        // must not outlive its invocation.
        if let trace = invocation.traceID {
            Environment.set("_X_AMZN_TRACE_ID", trace)
        } else {
            Environment.unset("_X_AMZN_TRACE_ID")
        }
        let context = LambdaContext(invocation, logger: logger.with(requestID: invocation.requestID))
        let outcome: InvocationOutcome
        switch Result(catching: { try handler.handle(invocation.event, context: context) }) {
        case .success(let answer):
            outcome = try deliver(answer, for: invocation.requestID, to: client)
        case .failure(let error):
            outcome = try report(
                Diagnostic(error, fallbackType: "Function.UnhandledError"), for: invocation.requestID, to: client)
        }
        if context.logger.isEnabled(outcome.level) {
            let durationMs = milliseconds(micros: (Clock.monotonicNanoseconds() - started) / 1000)
            context.logger.log(outcome.level, "invocation", outcome.fields(durationMs: durationMs))
        }
    }

    /// Posts the answer, or reports it as too large: before sending when it is over the limit,
    /// after when the Runtime API answers 413.
    static func deliver<C: RuntimeAPIClientProtocol>(
        _ answer: [UInt8], for requestID: String, to client: C
    ) throws(RuntimeAPIFailure) -> InvocationOutcome {
        guard answer.count <= maxResponseBytes else {
            return try report(
                .responseTooLarge(bytes: answer.count, limit: maxResponseBytes), for: requestID, to: client)
        }
        let status = try client.postResponse(requestID: requestID, body: answer)
        if status == 413 { return try report(.refusedAsTooLarge, for: requestID, to: client) }
        return status >= 400 ? .rejected(status: status) : .ok
    }

    static func report<C: RuntimeAPIClientProtocol>(
        _ diagnostic: Diagnostic, for requestID: String, to client: C
    ) throws(RuntimeAPIFailure) -> InvocationOutcome {
        try client.postInvocationError(requestID: requestID, diagnostic)
        return .error(errorType: diagnostic.errorType)
    }

    /// "12.34": microseconds as milliseconds with two decimals (a valid JSON number).
    static func milliseconds(micros: UInt64) -> String {
        String(micros / 1000) + "." + String(100 + micros % 1000 / 10).dropFirst()
    }
}

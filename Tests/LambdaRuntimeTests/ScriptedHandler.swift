@testable import LambdaRuntime

#if canImport(Glibc)
import Glibc
#endif

/// A handler that answers with a closure and records what it was given: each event, each
/// context, and `_X_AMZN_TRACE_ID` as the environment held it during the call.
final class ScriptedHandler: LambdaHandler {
    private let answer: ([UInt8], LambdaContext) throws -> [UInt8]
    private(set) var events: [[UInt8]] = []
    private(set) var contexts: [LambdaContext] = []
    private(set) var traceEnvironment: [String?] = []

    init(_ answer: @escaping ([UInt8], LambdaContext) throws -> [UInt8] = { event, _ in event }) {
        self.answer = answer
    }

    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        events.append(event)
        contexts.append(context)
        traceEnvironment.append(getenv("_X_AMZN_TRACE_ID").map { String(cString: $0) })
        return try answer(event, context)
    }
}

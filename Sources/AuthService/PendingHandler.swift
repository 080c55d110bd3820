import LambdaRuntime
import StrictJSON

/// The handler each function runs until its real implementation lands: it validates the event
/// as the contract requires and answers in the envelope, but signs nobody in.
public final class PendingHandler: LambdaHandler {
    let functionName: String

    public init(functionName: String) { self.functionName = functionName }

    public func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        let answer: ServiceError
        do throws(ServiceError) {
            _ = try EventReader(event)
            answer = ServiceError(.upstreamUnavailable, "\(functionName) is not implemented in this build.")
        } catch {
            answer = error
        }
        return Envelope.failure(answer, requestID: context.requestID).serialized()
    }
}

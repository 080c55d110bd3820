/// An event read as `ServiceHandler.handle` reads it, stopping before anything is sent anywhere:
/// for the fuzz target (Sources/fuzz), which drives hostile events through the real parsing and
/// action choice of each function without dependencies.
extension AuthFunction {
    /// The name of the action this function would run for `event` (its fields read and checked),
    /// or the answer it would give instead: the refusal's envelope in the event's shape.
    package func read(_ event: [UInt8], requestID: String) -> (action: String?, answer: [UInt8]?) {
        func refused(_ error: ServiceError, _ shape: Invocation.Shape) -> (action: String?, answer: [UInt8]?) {
            (nil, shape.wrap(Envelope.failure(error, requestID: requestID), statusCode: error.code.httpStatus))
        }
        switch Invocation.parse(event) {
        case .failure(let refusal): return refused(refusal.error, refusal.shape)
        case .success(let invocation):
            do throws(ServiceError) {
                return (type(of: try action(for: invocation)).name, nil)
            } catch {
                return refused(error, invocation.shape)
            }
        }
    }
}

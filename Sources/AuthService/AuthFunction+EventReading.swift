import StrictJSON

/// An event read as `ServiceHandler.handle` reads it, stopping before anything is sent anywhere:
/// for the fuzz target (Sources/fuzz), which drives hostile events through the real parsing and
/// action choice of each function without dependencies.
extension AuthFunction {
    /// The name of the action this function would run for `event` (its fields read and checked),
    /// or the answer it would give instead: the refusal's envelope in the event's shape.
    package func read(_ event: [UInt8], requestID: String) -> (action: String?, answer: [UInt8]?) {
        if servesAppleWebReturn, AppleWebReturn.isReturnURLRequest(event) { return ("appleWebReturn", nil) }
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

extension AuthFunction {
    /// For the fuzz target: the Apple return URL's answer to `event` with `target` configured, as
    /// its HTTP status and `location` (nil for the 400 page); nil when `event` is not for that URL.
    package func appleWebReturn(_ event: [UInt8], target: String) -> (status: Int64, location: String?)? {
        guard servesAppleWebReturn, AppleWebReturn.isReturnURLRequest(event),
            let configured = try? AppleWebReturnTarget(target)
        else { return nil }
        let (response, _) = AppleWebReturn.answer(event, target: configured)
        guard let object = (try? JSONParser.parse(response))?.objectValue, let status = object["statusCode"]?.int64Value
        else { return (0, nil) }
        return (status, object["headers"]?["location"]?.stringValue)
    }
}

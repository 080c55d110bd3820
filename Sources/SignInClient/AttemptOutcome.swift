import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The first of an attempt's endings (its answer, its deadline, the caller's cancellation) resumes
/// the caller, once; the others are dropped, and the exchange, if still running, is cancelled
/// without being waited for (FunctionURLTransport: a cancel that hangs must not hang the call).
final class AttemptOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<TransportAnswer, any Error>?
    private var early: Result<TransportAnswer, any Error>?
    private var abandon: (@Sendable () -> Void)?
    private var finished = false

    func wait(_ continuation: CheckedContinuation<TransportAnswer, any Error>) {
        let ready = lock.withLock { () -> Result<TransportAnswer, any Error>? in
            self.continuation = continuation
            return early
        }
        if let ready { continuation.resume(with: ready) }
    }

    func onAbandon(_ cancel: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            abandon = cancel
            return finished
        }
        if now { cancel() }
    }

    func finish(_ result: Result<TransportAnswer, any Error>) {
        let (waiting, cancel) = lock.withLock {
            () -> (CheckedContinuation<TransportAnswer, any Error>?, (@Sendable () -> Void)?) in
            guard !finished else { return (nil, nil) }
            finished = true
            guard let continuation else {
                early = result  // cancelled before the continuation was handed over
                return (nil, abandon)
            }
            self.continuation = nil
            return (continuation, abandon)
        }
        waiting?.resume(with: result)
        cancel?()
    }
}

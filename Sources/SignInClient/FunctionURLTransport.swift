import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: an HTTPS POST of the event to each function's Function URL.
///
/// An attempt is never abandoned before the function's own timeout has passed: one abandoned
/// sooner could still reach the function after its retry and rotate the token again, superseding
/// the one the app kept (docs/client.md, "Timeouts"). So no bound on an attempt (the request's
/// idle timeout, which on Darwin restarts at every byte received; the session's per-request and
/// whole-resource timeouts) is below that function's timeout + `networkAllowance`, and a task
/// deadline one second later is the backstop over the exchange (later, not equal:
/// FoundationNetworking can hang when a cancel races its own timeout).
public struct FunctionURLTransport: SignInTransport {
    public var urls: [SignInFunction: URL]
    public var session: URLSession
    /// Each function's `Timeout`, by default template.yaml's (`SignInFunction.templateTimeout`: 10 s,
    /// 30 s for auth-link); set the ones your deployment changed.
    public var functionTimeouts: [SignInFunction: TimeInterval]
    /// Time for the request and the answer to cross the network and Lambda's front door.
    public var networkAllowance: TimeInterval

    public init(
        signIn: URL, refresh: URL, link: URL, session: URLSession? = nil,
        functionTimeouts: [SignInFunction: TimeInterval] = [:], networkAllowance: TimeInterval = 5
    ) {
        self.urls = [.signin: signIn, .refresh: refresh, .link: link]
        self.functionTimeouts = functionTimeouts
        self.networkAllowance = networkAllowance
        if let session {
            self.session = session
        } else {
            // The session's bounds fit the longest attempt; each request carries its function's own.
            let longest =
                SignInFunction.allCases.map {
                    (functionTimeouts[$0] ?? $0.templateTimeout) + max(0, networkAllowance)
                }.max() ?? 0
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.timeoutIntervalForRequest = longest
            configuration.timeoutIntervalForResource = longest
            self.session = URLSession(configuration: configuration)
        }
    }

    /// How long one attempt at `function` may take before it is given up: never less than the
    /// function's timeout.
    public func attemptTimeout(for function: SignInFunction) -> TimeInterval {
        (functionTimeouts[function] ?? function.templateTimeout) + max(0, networkAllowance)
    }

    public func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
        guard let url = urls[function] else { throw SignInError.offline(detail: "no URL for \(function.rawValue)") }
        let attemptTimeout = attemptTimeout(for: function)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: attemptTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = event
        let deadline = attemptTimeout + 1
        // The task deadline: whatever URLSession does with its timeouts, the attempt ends here. The
        // exchange is not awaited once the deadline has passed: after a process was frozen
        // (SIGSTOP, an iOS suspension) both timers fire at once on resume. The exchange is a
        // completion-handler data task, never an async `data(for:)` cancelled through its Swift
        // task: FoundationNetworking's cancel waits on the session's queue while holding that
        // task's status lock, and the queue, finishing the transfer, waits for the same lock to
        // resume it (a deadlock seen after SIGCONT). The abandoned task is cancelled off every
        // lock, later, on a queue of its own.
        let outcome = AttemptOutcome()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.wait(continuation)
                let task = session.dataTask(with: request) { body, response, error in
                    outcome.finish(Self.answer(body, response, error))
                }
                let abandoned = AbandonedTask(task)
                outcome.onAbandon { DispatchQueue.global().async { abandoned.task.cancel() } }
                task.resume()
                Task {
                    try? await Task.sleep(for: .seconds(deadline))
                    outcome.finish(.failure(SignInError.timedOut))
                }
            }
        } onCancel: {
            outcome.finish(.failure(SignInError.cancelled))
        }
    }

    static func answer(
        _ body: Data?, _ response: URLResponse?, _ error: (any Error)?
    ) -> Result<TransportAnswer, any Error> {
        if let error = error as? URLError { return .failure(error.signInError) }
        if error != nil { return .failure(SignInError.answerLost(detail: "transport failed")) }
        return .success(TransportAnswer(statusCode: (response as? HTTPURLResponse)?.statusCode, body: body ?? Data()))
    }
}

/// The data task an abandoned attempt cancels: URLSessionTask is thread-safe (its state is behind
/// the session's own queue), which FoundationNetworking does not declare on every platform.
private struct AbandonedTask: @unchecked Sendable {
    let task: URLSessionDataTask
    init(_ task: URLSessionDataTask) { self.task = task }
}

extension URLError {
    /// Whether the request may have reached the function: only failures before it left are
    /// `offline` (nothing could have rotated); a timeout is `timedOut`; the rest `answerLost`.
    var signInError: SignInError {
        switch code {
        case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .badURL,
            .unsupportedURL, .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection, .dataNotAllowed,
            .internationalRoamingOff, .callIsActive:
            return .offline(detail: "URLError \(code.rawValue)")
        case .timedOut: return .timedOut
        default: return .answerLost(detail: "URLError \(code.rawValue)")
        }
    }
}

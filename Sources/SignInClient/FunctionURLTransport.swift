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
        let (exchange, session, deadline) = (request, self.session, attemptTimeout + 1)
        // The task deadline: whatever URLSession does with its timeouts, the attempt ends here. The
        // exchange is not awaited once the deadline has passed: after a process was frozen
        // (SIGSTOP, an iOS suspension) both timers fire at once on resume, and FoundationNetworking
        // can then hang in the cancel forever (a task group would wait for it).
        let outcome = AttemptOutcome()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.wait(continuation)
                let work = Task {
                    do { outcome.finish(.success(try await Self.exchange(exchange, over: session))) } catch {
                        outcome.finish(.failure(error))
                    }
                }
                outcome.onAbandon { work.cancel() }
                Task {
                    try? await Task.sleep(for: .seconds(deadline))
                    outcome.finish(.failure(SignInError.timedOut))
                }
            }
        } onCancel: {
            outcome.finish(.failure(SignInError.cancelled))
        }
    }

    static func exchange(_ request: URLRequest, over session: URLSession) async throws -> TransportAnswer {
        do {
            let (body, response) = try await session.data(for: request)
            return TransportAnswer(statusCode: (response as? HTTPURLResponse)?.statusCode, body: body)
        } catch let error as URLError {
            throw error.signInError
        } catch {
            throw SignInError.answerLost(detail: "transport failed")
        }
    }
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

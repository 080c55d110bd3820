import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: an HTTPS POST of the event to each function's Function URL.
public struct FunctionURLTransport: SignInTransport {
    public var urls: [SignInFunction: URL]
    public var session: URLSession
    public var timeout: TimeInterval

    /// `timeout` bounds one request; keep it well under `REFRESH_REUSE_GRACE_SECONDS` (30 s) so that
    /// a lost refresh answer is retried within the grace (see `SignInConfiguration.refreshRetryWindow`).
    public init(signIn: URL, refresh: URL, link: URL, session: URLSession? = nil, timeout: TimeInterval = 8) {
        self.urls = [.signin: signIn, .refresh: refresh, .link: link]
        self.timeout = timeout
        if let session {
            self.session = session
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            // FoundationNetworking honours the configuration's timeout, not only the request's.
            configuration.timeoutIntervalForRequest = timeout
            self.session = URLSession(configuration: configuration)
        }
    }

    public func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
        guard let url = urls[function] else { throw SignInError.offline(detail: "no URL for \(function.rawValue)") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = event
        do {
            let (body, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode
            return TransportAnswer(statusCode: status, body: body)
        } catch let error as URLError {
            if error.code == .timedOut { throw SignInError.timedOut }
            if error.code == .cancelled { throw SignInError.cancelled }
            throw SignInError.offline(detail: "URLError \(error.code.rawValue)")
        } catch {
            if Task.isCancelled { throw SignInError.cancelled }
            throw SignInError.offline(detail: "transport failed")
        }
    }
}

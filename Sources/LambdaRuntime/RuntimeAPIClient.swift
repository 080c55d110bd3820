import CurlHTTP

/// The Lambda Runtime API (https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html) over
/// one curl easy handle: the connection to the local runtime endpoint stays open across
/// invocations, and `next` is a long poll with no timeout (no polling, no sleeps).
final class RuntimeAPIClient: RuntimeAPIClientProtocol {
    private let base: String
    private let handle: EasyHandle

    init(endpoint: String) throws(HTTPError) {
        base = "http://\(endpoint)/2018-06-01/runtime"
        // Lambda caps request payloads at 6 MiB; leave room for a little more before refusing.
        handle = try EasyHandle(maxResponseBytes: 7 << 20)
    }

    /// Never `nil`: Lambda always has a next invocation, or stops the process while it waits.
    func next() throws(RuntimeAPIFailure) -> Invocation? {
        let response = try send(.next)
        return try Invocation(headers: response.headers, event: response.body)
    }

    func postResponse(requestID: String, body: [UInt8]) throws(RuntimeAPIFailure) -> Int {
        try send(.response(requestID: requestID, body: body)).status
    }

    func postInvocationError(requestID: String, _ diagnostic: Diagnostic) throws(RuntimeAPIFailure) {
        _ = try send(.invocationError(requestID: requestID, diagnostic))
    }

    func postInitError(_ diagnostic: Diagnostic) throws(RuntimeAPIFailure) {
        _ = try send(.initError(diagnostic))
    }

    private func send(_ request: RuntimeAPIRequest) throws(RuntimeAPIFailure) -> HTTPResponse {
        let http = HTTPRequest(
            method: request.method, url: base + request.path, headers: request.headers, body: request.body,
            timeoutMilliseconds: request.timeoutMilliseconds)
        let response: HTTPResponse
        do throws(HTTPError) {
            response = try handle.perform(http)
        } catch { throw RuntimeAPIFailure(description: "\(request.label) failed: \(error.message)") }
        try request.check(status: response.status)
        return response
    }
}

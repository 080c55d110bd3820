internal import CCurlShim

/// Sends requests through one curl multi handle, so all of them share one connection pool that
/// lives as long as the client (a warm Lambda keeps its connections to S3, STS and the JWKS
/// hosts), and independent requests overlap on the wire. Easy handles are pooled, one owner each.
/// Not thread-safe: one client per process, used from the invocation thread.
package final class HTTPClient {
    private let multi: UnsafeMutableRawPointer
    private var idle: [EasyHandle] = []
    /// Requests sent (each retry counts again), for the tests' and the benchmark's request counts.
    package private(set) var requestCount = 0
    /// Sequential network rounds (a batch of overlapping requests counts once; each retry round
    /// counts again).
    package private(set) var roundCount = 0

    package init() throws(HTTPError) {
        try CurlLibrary.ensureLoaded()
        guard let m = ccurl_multi_init() else { throw HTTPError(kind: .other, message: "curl_multi_init failed") }
        multi = m
        ccurl_multi_setopt_long(m, CURLMOPT_MAXCONNECTS, 16)
    }

    deinit {
        idle.removeAll()  // easy handles must go before the multi that pools their connections
        ccurl_multi_cleanup(multi)
    }

    /// Requests sent again by the retry loop (each retried request of a round counts once), for
    /// the invocation's metrics.
    package internal(set) var retryCount = 0

    package func resetCounters() {
        requestCount = 0
        roundCount = 0
        retryCount = 0
    }

    /// One request.
    package func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> { sendAll([request])[0] }

    /// Runs all requests at once and returns their outcomes in the same order.
    package func sendAll(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, HTTPError>] {
        guard !requests.isEmpty else { return [] }
        requestCount += requests.count
        roundCount += 1
        var results = [Result<HTTPResponse, HTTPError>?](repeating: nil, count: requests.count)
        var active: [(index: Int, handle: EasyHandle)] = []
        for (index, request) in requests.enumerated() {
            do throws(HTTPError) {
                let handle: EasyHandle
                if let reused = idle.popLast() { handle = reused } else { handle = try EasyHandle() }
                try handle.prepare(request)
                let rc = ccurl_multi_add_handle(multi, handle.raw)
                guard rc == CURLM_OK else {
                    results[index] = .failure(
                        HTTPError(kind: .other, message: String(cString: ccurl_multi_strerror(rc))))
                    idle.append(handle)
                    continue
                }
                active.append((index, handle))
            } catch {
                results[index] = .failure(error)
            }
        }
        var running: Int32 = 0
        while !active.isEmpty {
            let rc = ccurl_multi_perform(multi, &running)
            var doneRaw: UnsafeMutableRawPointer?
            var code = CURLE_OK
            while ccurl_multi_next_done(multi, &doneRaw, &code) == 1 {
                guard let pos = active.firstIndex(where: { $0.handle.raw == doneRaw }) else { continue }
                let (index, handle) = active.remove(at: pos)
                ccurl_multi_remove_handle(multi, handle.raw)
                do throws(HTTPError) { results[index] = .success(try handle.finish(code)) } catch {
                    results[index] = .failure(error)
                }
                idle.append(handle)
            }
            if rc != CURLM_OK {
                // A multi-level failure: fail what is left rather than spin.
                for (index, handle) in active {
                    ccurl_multi_remove_handle(multi, handle.raw)
                    results[index] = .failure(
                        HTTPError(kind: .other, message: String(cString: ccurl_multi_strerror(rc))))
                    idle.append(handle)
                }
                active.removeAll()
            }
            if !active.isEmpty && running > 0 {
                // Blocks until a socket is ready or 1 s passes; each transfer's own timeout bounds the loop.
                var fds: Int32 = 0
                ccurl_multi_poll(multi, 1000, &fds)
            }
        }
        return results.map { $0! }
    }
}

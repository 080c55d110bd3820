internal import CCurlShim
import PlatformSupport

/// One libcurl easy handle and the state of its current transfer. The handle has exactly one
/// owner (this object); libcurl's callbacks are bridged once, in `prepare`, with `self` as the
/// userdata pointer, and write into the buffers below. Not thread-safe, by design: a Lambda
/// process serves one invocation at a time.
package final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// Where `prepare` composes each request header line before curl copies it.
    private var headerScratch: [UInt8] = []
    private(set) var responseBody: [UInt8] = []
    private(set) var responseHeaders = HeaderBlock()
    private var overflowed = false
    /// Larger responses fail with `.responseTooLarge` instead of growing without bound.
    var maxResponseBytes: Int
    /// The limit of the transfer under way: the request's own, else `maxResponseBytes`.
    private var transferLimit: Int

    package init(maxResponseBytes: Int = 16 << 20) throws(HTTPError) {
        try CurlLibrary.ensureLoaded()
        guard let handle = ccurl_easy_init() else { throw HTTPError(kind: .other, message: "curl_easy_init failed") }
        raw = handle
        self.maxResponseBytes = maxResponseBytes
        transferLimit = maxResponseBytes
    }

    deinit {
        if let headerList { ccurl_slist_free_all(headerList) }
        ccurl_easy_cleanup(raw)
    }

    /// Runs one transfer on this handle with the blocking easy interface. The handle keeps its
    /// connection between calls (curl_easy_reset keeps live connections), so a loop that calls
    /// this repeatedly talks over one kept-alive TCP connection.
    package func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try prepare(request)
        let code = ccurl_easy_perform(raw)
        return try finish(code)
    }

    /// Sets every option for `request`. Options from the previous transfer are cleared first.
    func prepare(_ request: HTTPRequest) throws(HTTPError) {
        ccurl_easy_reset(raw)
        // Fresh buffers, not `removeAll(keepingCapacity:)`: the last response's body is still
        // shared with the caller, so keeping capacity would allocate a copy as large as the
        // largest answer ever received (a 300 KB event) for every transfer after it.
        responseBody = []
        responseHeaders = HeaderBlock()
        overflowed = false
        transferLimit = request.maxResponseBytes ?? maxResponseBytes
        if let headerList {
            ccurl_slist_free_all(headerList)
            self.headerList = nil
        }

        ccurl_setopt_string(raw, CURLOPT_URL, request.url)
        // The path goes out exactly as given: curl would otherwise remove `.` and `..` segments
        // (RFC 3986 5.2.4), and a request that addresses an S3 key such as `photos/../a.jpg` would
        // then no longer match its SigV4 signature (403) or would name another key (issue 23).
        ccurl_setopt_long(raw, CURLOPT_PATH_AS_IS, 1)
        ccurl_setopt_long(raw, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(raw, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds)
        ccurl_setopt_long(
            raw, CURLOPT_CONNECTTIMEOUT_MS,
            request.timeoutMilliseconds == 0 ? 0 : min(request.timeoutMilliseconds, 3_000))
        ccurl_setopt_long(raw, CURLOPT_TCP_NODELAY, 1)
        ccurl_setopt_long(raw, CURLOPT_FOLLOWLOCATION, 0)
        ccurl_setopt_string(raw, CURLOPT_ACCEPT_ENCODING, nil)

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        ccurl_setopt_data_callback(raw, CURLOPT_WRITEFUNCTION, easyHandleWriteCallback)
        ccurl_setopt_pointer(raw, CURLOPT_WRITEDATA, userdata)
        ccurl_setopt_data_callback(raw, CURLOPT_HEADERFUNCTION, easyHandleHeaderCallback)
        ccurl_setopt_pointer(raw, CURLOPT_HEADERDATA, userdata)

        var list: UnsafeMutablePointer<curl_slist>?
        var hasContentType = false
        for (name, value) in request.headers {
            if name.equalsIgnoringASCIICase("Content-Type") { hasContentType = true }
            // "Name:" with an empty value would remove the header; "Name;" sends it empty. The
            // line is composed in a buffer the handle keeps (curl copies it), not a new String.
            headerScratch.removeAll(keepingCapacity: true)
            headerScratch.append(contentsOf: name.utf8)
            headerScratch.append(contentsOf: value.isEmpty ? ";".utf8 : ": ".utf8)
            headerScratch.append(contentsOf: value.utf8)
            headerScratch.append(0)
            list = headerScratch.withUnsafeBufferPointer { line in
                line.withMemoryRebound(to: CChar.self) { ccurl_slist_append(list, $0.baseAddress) }
            }
        }
        // curl would add "Expect: 100-continue" (one wasted round trip) and, for POSTFIELDS, a
        // form content type that S3 would store on the object: suppress both unless asked for.
        list = ccurl_slist_append(list, "Expect:")
        if !hasContentType { list = ccurl_slist_append(list, "Content-Type:") }
        headerList = list
        ccurl_setopt_slist(raw, CURLOPT_HTTPHEADER, list)

        switch request.method {
        case "GET" where request.body.isEmpty:
            ccurl_setopt_long(raw, CURLOPT_HTTPGET, 1)
        case "HEAD":
            ccurl_setopt_long(raw, CURLOPT_NOBODY, 1)
        default:
            // POSTFIELDS carries the body for any method; CUSTOMREQUEST renames POST to PUT etc.
            ccurl_setopt_long(raw, CURLOPT_POST, 1)
            ccurl_setopt_off(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            request.body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies, so the array need not outlive this call.
                _ = ccurl_setopt_pointer(
                    raw, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            if request.method != "POST" { ccurl_setopt_string(raw, CURLOPT_CUSTOMREQUEST, request.method) }
        }
    }

    /// Turns the finished transfer into a response or a classified error.
    func finish(_ code: CURLcode) throws(HTTPError) -> HTTPResponse {
        if overflowed { throw HTTPError(kind: .responseTooLarge, message: "response exceeded \(transferLimit) bytes") }
        guard code == CURLE_OK else { throw EasyHandle.error(for: code) }
        var status = 0
        ccurl_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headerBlock: responseHeaders, body: responseBody)
    }

    static func error(for code: CURLcode) -> HTTPError {
        let text = String(cString: ccurl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPError(kind: .timeout, message: text)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
            CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_SSL_CONNECT_ERROR:
            return HTTPError(kind: .connection, message: text)
        default:
            return HTTPError(kind: .other, message: text)
        }
    }

    fileprivate func append(body data: UnsafeRawBufferPointer) -> Bool {
        guard responseBody.count + data.count <= transferLimit else {
            overflowed = true
            return false
        }
        responseBody.append(contentsOf: data)
        return true
    }

    fileprivate func append(headerLine data: UnsafeRawBufferPointer) {
        // Kept as bytes; read in place by `HTTPResponse.header(_:)`.
        responseHeaders.append(line: data)
    }
}

// The two C callbacks, written once; `userdata` is always the EasyHandle that set them.
private let easyHandleWriteCallback: ccurl_data_callback = { data, size, count, userdata in
    let total = size * count
    guard let userdata, let data else { return 0 }
    let handle = Unmanaged<EasyHandle>.fromOpaque(userdata).takeUnretainedValue()
    return handle.append(body: UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

private let easyHandleHeaderCallback: ccurl_data_callback = { data, size, count, userdata in
    let total = size * count
    guard let userdata, let data else { return 0 }
    Unmanaged<EasyHandle>.fromOpaque(userdata).takeUnretainedValue().append(
        headerLine: UnsafeRawBufferPointer(start: data, count: total))
    return total
}

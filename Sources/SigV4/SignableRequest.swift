/// A request as it will go on the wire, before signing.
package struct SignableRequest: Sendable {
    var method: String
    /// The Host header value: lowercase host, with `:port` only when it is not the scheme's default.
    var host: String
    /// The path exactly as sent, already percent-encoded (see `SigV4.encodePath`).
    package var path: String
    /// Query parameters, not encoded; the signer encodes and sorts them.
    var query: [(name: String, value: String)]
    /// Extra headers to send and sign (Content-Type, x-amz-meta-*, If-Match, ...).
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    package init(
        method: String, host: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

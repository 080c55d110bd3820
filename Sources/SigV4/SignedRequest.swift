/// What signing produced: every header to send (host, the request's own, the x-amz ones and
/// Authorization) and the encoded query string to put after `?`. The intermediate strings are kept
/// for the fixture tests; they contain the session token (a signed header), so never log them.
package struct SignedRequest: Sendable {
    package var headers: [(name: String, value: String)]
    package var queryString: String
    package var canonicalRequest: String
    package var stringToSign: String
    package var signature: String
    package var authorization: String
}

/// What signing produced: every header to send (host, the request's own, the x-amz ones and
/// Authorization) and the encoded query string to put after `?`. The intermediate texts are kept
/// as bytes for the fixture tests (made Strings only when read); they contain the session token (a
/// signed header), so never log them.
package struct SignedRequest: Sendable {
    package var headers: [(name: String, value: String)]
    package var queryString: String
    var canonicalRequestBytes: [UInt8]
    var stringToSignBytes: [UInt8]
    package var signature: String
    package var authorization: String

    package var canonicalRequest: String { String(decoding: canonicalRequestBytes, as: UTF8.self) }
    package var stringToSign: String { String(decoding: stringToSignBytes, as: UTF8.self) }
}

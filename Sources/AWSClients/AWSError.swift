import CurlHTTP
import PlatformSupport
import StrictJSON

/// A failed S3 or STS call, classified for the caller. The message is AWS's own `Message`
/// element or libcurl's text: never a header, a signature, a key or a token.
package struct AWSError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// 404 where the operation does not expect it (NoSuchBucket, ...).
        case notFound
        /// 412, or 404 on `If-Match` against a missing key.
        case preconditionFailed
        /// 403: AccessDenied, SignatureDoesNotMatch, InvalidAccessKeyId, ExpiredToken, ...
        case accessDenied
        /// SlowDown, Throttling, 429, ... still throttled after the bounded retries.
        case throttled
        /// 5xx, timeouts, connection errors after the bounded retries, or the deadline reached.
        case unavailable
        /// 409 ConditionalRequestConflict (a concurrent conditional write) after the bounded retries.
        case conflict
        /// Refused before sending (object-key rules, bad arguments), or a 4xx that says the
        /// request itself is wrong (MalformedPolicyDocument, ValidationError, ...).
        case invalidRequest
        /// Anything else (an unparseable answer, a 3xx, ...).
        case other
    }

    package var kind: Kind
    /// The S3/STS error code (`NoSuchBucket`, `SlowDown`, ...), when the answer had one.
    package var code: String?
    package var message: String
    var requestID: String?
    /// HTTP status, when there was an answer.
    var status: Int?
    /// Requests sent for this operation (1 when there was no retry, 0 when refused before sending).
    package var attempts: Int

    package init(
        kind: Kind, code: String? = nil, message: String, requestID: String? = nil, status: Int? = nil,
        attempts: Int = 0
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.requestID = requestID
        self.status = status
        self.attempts = attempts
    }

    /// Whether trying again later may succeed (the caller's choice; the client has already
    /// retried within its budget).
    package var isRetryable: Bool { kind == .throttled || kind == .unavailable || kind == .conflict }

    package var description: String {
        var s = "AWS \(kind)"
        if let status {
            s += " (HTTP \(status)" + (code.map { " " + $0 } ?? "") + ")"
        } else if let code {
            s += " (\(code))"
        }
        s += ": " + message
        if attempts > 1 { s += " after \(attempts) attempts" }
        if let requestID { s += " [request \(requestID)]" }
        return s
    }

    static func invalid(_ message: String) -> AWSError { AWSError(kind: .invalidRequest, message: message) }
}

/// What one HTTP outcome means for the retry loop.
enum AttemptVerdict {
    case success(HTTPResponse)
    case retry(AWSError)
    case failure(AWSError)
}

package enum ErrorClassifier {
    static let throttlingCodes: Set<String> = [
        "SlowDown", "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
        "TooManyRequestsException", "ProvisionedThroughputExceededException", "TransactionInProgressException",
        "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException", "RequestThrottled",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
    ]
    static let transientCodes: Set<String> = [
        "InternalError", "ServiceUnavailable", "RequestTimeout", "RequestTimeoutException", "IDPCommunicationError",
    ]
    static let accessCodes: Set<String> = [
        "AccessDenied", "SignatureDoesNotMatch", "InvalidAccessKeyId", "InvalidClientTokenId", "ExpiredToken",
        "ExpiredTokenException",
        "InvalidToken", "TokenRefreshRequired", "RequestTimeTooSkewed", "AllAccessDisabled", "AccountProblem",
        "RegionDisabledException",
        "MissingAuthenticationToken", "IncompleteSignature", "AuthFailure", "UnrecognizedClientException",
    ]

    /// Sorts one outcome. `accept` lists statuses the operation interprets itself (404 for a
    /// GET, 412 for a conditional PUT); other 2xx are always success.
    static func classify(_ outcome: Result<HTTPResponse, HTTPError>, accept: Set<Int>) -> AttemptVerdict {
        let response: HTTPResponse
        switch outcome {
        case .failure(let e):
            let error = AWSError(kind: e.isRetryable ? .unavailable : .other, message: e.message)
            return e.isRetryable ? .retry(error) : .failure(error)
        case .success(let r): response = r
        }
        if (200..<300).contains(response.status) || accept.contains(response.status) { return .success(response) }
        let error = describe(response)
        switch error.kind {
        case .throttled, .unavailable, .conflict: return .retry(error)
        default: return .failure(error)
        }
    }

    /// The typed error for an answer that is not a success.
    package static func describe(_ response: HTTPResponse) -> AWSError {
        let details = parseErrorBody(response.body)
        let code = details.code
        let requestID = details.requestID ?? response.header("x-amz-request-id") ?? response.header("x-amzn-RequestId")
        let status = response.status
        let kind: AWSError.Kind
        if let code, throttlingCodes.contains(code) {
            kind = .throttled
        } else if status == 429 {
            kind = .throttled
        } else if let code, transientCodes.contains(code) {
            kind = .unavailable
        } else if status == 409, code == "ConditionalRequestConflict" {
            kind = .conflict
        } else if status >= 500, status != 501 {
            kind = .unavailable
        } else if status == 412 {
            kind = .preconditionFailed
        } else if status == 404 {
            kind = .notFound
        } else if status == 403 || (code.map { accessCodes.contains($0) } ?? false) {
            kind = .accessDenied
        } else if (400..<500).contains(status) {
            kind = .invalidRequest
        } else {
            kind = .other
        }
        let message = details.message.map(sanitize) ?? "HTTP \(status)"
        return AWSError(kind: kind, code: code, message: message, requestID: requestID, status: status)
    }

    /// `<Error><Code/><Message/><RequestId/></Error>` (S3) or
    /// `<ErrorResponse><Error><Code/><Message/></Error><RequestId/></ErrorResponse>` (STS).
    /// Only these three elements are read: S3's signature errors also echo the canonical
    /// request, which contains the session token.
    package static func parseErrorBody(_ body: [UInt8]) -> (code: String?, message: String?, requestID: String?) {
        if body.first == UInt8(ascii: "{") { return parseJSONErrorBody(body) }
        guard !body.isEmpty, let root = XMLReader.parse(body) else { return (nil, nil, nil) }
        // STS nests it once more in some implementations: <ErrorResponse><Errors><Error>.
        let error = root.name == "Error" ? root : (root.child("Error") ?? root.child("Errors")?.child("Error"))
        let requestID = error?["RequestId"] ?? root["RequestId"] ?? root["RequestID"]
        return (error?["Code"].flatMap(nonEmpty), error?["Message"].flatMap(nonEmpty), requestID.flatMap(nonEmpty))
    }

    /// The JSON protocols' error (SSM): `{"__type": "[namespace#]Code", "message": "..."}`.
    static func parseJSONErrorBody(_ body: [UInt8]) -> (code: String?, message: String?, requestID: String?) {
        guard let object = (try? JSONParser.parse(body))?.objectValue else { return (nil, nil, nil) }
        let type = object["__type"]?.stringValue.map { t in t.split(separator: "#").last.map(String.init) ?? t }
        let message = object["message"]?.stringValue ?? object["Message"]?.stringValue
        return (type.flatMap(nonEmpty), message.flatMap(nonEmpty), nil)
    }

    private static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    /// One line, printable, bounded.
    static func sanitize(_ text: String) -> String {
        var out = ""
        for ch in text.unicodeScalars.prefix(300) {
            let isASCIIControl = ch.isASCII && !ASCII.isPrintable(UInt8(ch.value))
            out.unicodeScalars.append(isASCIIControl ? " " : ch)
        }
        return out
    }
}

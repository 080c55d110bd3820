import CurlHTTP
import PlatformSupport
import StrictJSON

/// What one `/auth/usermigrationinfo` answer means to `AppleMigrationClient`'s loop.
enum AppleMigrationVerdict<Value: Sendable> {
    case answer(AppleMigrationAnswer<Value>)
    /// 401, or 400 `invalid_grant`: the access token expired or was revoked; renew it once.
    case tokenRefused
    /// 429, with `Retry-After` in milliseconds when Apple sent one (delta-seconds).
    case throttled(Int64?)
    /// 5xx (but 501) or a transport failure worth another attempt.
    case transient

    init(_ result: Result<HTTPResponse, HTTPError>, read: (JSONObject) -> Value?) {
        let response: HTTPResponse
        switch result {
        case .failure(let error):
            self = error.isRetryable ? .transient : .answer(.unavailable("no answer from Apple (\(error.kind))"))
            return
        case .success(let r): response = r
        }
        let object = (try? JSONParser.parse(response.body))?.objectValue
        switch response.status {
        case 200...299:
            guard let object, let value = read(object) else {
                self = .answer(.refused("unreadable answer"))
                return
            }
            self = .answer(.value(value))
        case 429: self = .throttled(Self.retryAfterMs(response.header("Retry-After")))
        case 501: self = .answer(.unavailable("Apple answered 501"))
        case 500...599: self = .transient
        case 401: self = .tokenRefused
        case 400...499:
            let code = AppleTokenError.rejection(object?["error"]?.stringValue)
            switch code {
            case .rejected("invalid_grant"): self = .tokenRefused
            case .rejected("invalid_request"): self = .answer(.refused("invalid_request"))
            case .rejected("invalid_client"):
                self = .answer(
                    .unavailable("Apple refused the client (invalid_client): check the team, key id, key and client id")
                )
            default: self = .answer(.unavailable(code.description))
            }
        default: self = .answer(.unavailable("Apple answered HTTP \(response.status)"))
        }
    }

    /// `Retry-After` as delta-seconds (RFC 9110 §10.2.3); an HTTP-date, or nonsense, is nil (the
    /// backoff decides then).
    static func retryAfterMs(_ text: String?) -> Int64? {
        guard let text, !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy(ASCII.isDigit),
            let seconds = Int64(text)
        else { return nil }
        return seconds * 1000
    }
}

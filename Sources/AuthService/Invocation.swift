import PlatformSupport
import StrictJSON
import TokenVerification

/// One invocation's event, parsed once and classified by its shape: the app's own `Invoke`
/// (the payload is the request) or a Lambda Function URL (an HTTP payload v2 event whose `body`
/// carries the request, answered as HTTP). Apple's notification bodies and the scheduled event
/// become further shapes here, each dispatched from `ServiceHandler` in one place.
package enum Invocation {
    /// How the answer must be shaped (docs/API.md: the HTTP status is used only for Function URLs).
    package enum Shape: Sendable, Equatable {
        case direct
        case functionURL
    }

    /// Events over 64 KiB are refused (docs/API.md, "Events").
    package static let maxEventBytes = 64 * 1024
    /// A Function URL event wraps a request of at most `maxEventBytes` (base64 adds a third) in
    /// headers and request context; nothing legitimate is larger, so a larger payload is refused
    /// before it is parsed.
    package static let maxRawEventBytes = 4 * maxEventBytes

    case appCall(Request)
    case functionURL(Request)
    /// A Function URL request whose body is a security event token (`Content-Type:
    /// application/secevent+jwt`, RFC 8417/8935: Google's Cross-Account Protection). The token
    /// is the request's `securityEventMember`.
    case securityEvent(Request)

    /// The member of a `securityEvent`'s request that holds the token (no JSON body carries it:
    /// the request is made here from the body).
    package static let securityEventMember = "securityEventToken"
    package static let securityEventContentType = "application/secevent+jwt"

    package var shape: Shape {
        switch self {
        case .appCall: return .direct
        case .functionURL, .securityEvent: return .functionURL
        }
    }

    package var request: Request {
        switch self {
        case .appCall(let r), .functionURL(let r), .securityEvent(let r): return r
        }
    }

    package var isSecurityEvent: Bool {
        if case .securityEvent = self { return true }
        return false
    }

    /// The same invocation, its request naming `providers` as the ones this deployment accepts.
    package func accepting(_ providers: [IdentityProvider]) -> Invocation {
        var r = request
        r.acceptedProviders = providers
        return with(r)
    }

    /// The same invocation, its request knowing the ARN it was invoked through.
    package func invoked(through arn: String) -> Invocation {
        var r = request
        r.invokedFunctionARN = arn
        return with(r)
    }

    /// The same shape with another request.
    private func with(_ r: Request) -> Invocation {
        switch self {
        case .appCall: return .appCall(r)
        case .functionURL: return .functionURL(r)
        case .securityEvent: return .securityEvent(r)
        }
    }

    /// The event's shape and request, or why it cannot be read (with the shape to answer in).
    /// A direct event is parsed exactly once; a Function URL event twice (the envelope, then the
    /// body it carries as a string). Messages name the problem, never the content.
    package static func parse(_ event: [UInt8]) -> Result<Invocation, Refusal> {
        guard event.count <= maxRawEventBytes else {
            return .failure(
                Refusal(tooLarge, shape: contains(event, Array("\"requestContext\"".utf8)) ? .functionURL : .direct))
        }
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(event) } catch {
            if event.count > maxEventBytes { return .failure(Refusal(tooLarge, shape: .direct)) }
            return .failure(
                Refusal(
                    ServiceError(.invalidRequest, "The event is not valid JSON (\(error.description))."), shape: .direct
                ))
        }
        if let http = functionURLRequest(value) {
            if isSecurityEventToken(http) { return functionURLBody(http).flatMap(securityEvent) }
            return functionURLBody(http).flatMap { body in
                Request.parse(body).map(Invocation.functionURL).mapError { Refusal($0, shape: .functionURL) }
            }
        }
        guard event.count <= maxEventBytes else { return .failure(Refusal(tooLarge, shape: .direct)) }
        guard let object = value.objectValue else {
            return .failure(Refusal(ServiceError(.invalidRequest, "The event must be a JSON object."), shape: .direct))
        }
        return .success(.appCall(Request(object)))
    }

    /// A request that could not be read, and the shape its refusal is answered in.
    package struct Refusal: Error {
        package let error: ServiceError
        package let shape: Shape

        package init(_ error: ServiceError, shape: Shape) {
            self.error = error
            self.shape = shape
        }
    }

    package static var tooLarge: ServiceError {
        ServiceError(.invalidRequest, "The event is larger than \(maxEventBytes) bytes.")
    }

    /// An HTTP payload v2 event: `"version": "2.0"` and an object `requestContext.http`.
    package static func functionURLRequest(_ value: JSONValue) -> JSONObject? {
        guard let object = value.objectValue, object["version"]?.stringValue == "2.0",
            object["requestContext"]?["http"]?.objectValue != nil
        else { return nil }
        return object
    }

    /// Whether the request's `content-type` (Function URLs pass header names in lowercase) is
    /// `application/secevent+jwt`, parameters aside.
    package static func isSecurityEventToken(_ http: JSONObject) -> Bool {
        guard let type = http["headers"]?["content-type"]?.stringValue else { return false }
        let media = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return media.trimmingASCIISpaces().lowercasedASCII() == securityEventContentType
    }

    /// A security event token body: the JWT's compact text, surrounding whitespace aside.
    package static func securityEvent(_ body: [UInt8]) -> Result<Invocation, Refusal> {
        let text = String(decoding: body, as: UTF8.self).trimmingASCIISpaces()
        guard !text.isEmpty, text.utf8.allSatisfy(ASCII.isVisible) else {
            return .failure(
                Refusal(
                    ServiceError(.invalidRequest, "The body is not a security event token (a JWT)."),
                    shape: .functionURL))
        }
        return .success(.securityEvent(Request(JSONObject([(securityEventMember, .string(text))]))))
    }

    /// The request bytes a Function URL event carries: `body` (a string, or absent), base64-decoded
    /// when `isBase64Encoded` is true, at most `maxBytes`.
    package static func functionURLBody(_ http: JSONObject, maxBytes: Int = maxEventBytes) -> Result<[UInt8], Refusal> {
        func refuse(_ message: String) -> Result<[UInt8], Refusal> {
            .failure(Refusal(ServiceError(.invalidRequest, message), shape: .functionURL))
        }
        let body: String
        switch http["body"] {
        case nil, .some(.null): body = ""
        case .some(.string(let s)): body = s
        default: return refuse("The HTTP request body must be a string.")
        }
        let base64: Bool
        switch http["isBase64Encoded"] {
        case nil, .some(.null): base64 = false
        case .some(.bool(let b)): base64 = b
        default: return refuse("The HTTP request's isBase64Encoded must be a boolean.")
        }
        var bytes = Array(body.utf8)
        if base64 {
            guard let decoded = Base64.decode(body) else { return refuse("The HTTP request body is not valid base64.") }
            bytes = decoded
        }
        guard bytes.count <= maxBytes else { return .failure(Refusal(tooLarge, shape: .functionURL)) }
        return .success(bytes)
    }

    package static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        // A scan for the first byte, the rest compared only there: comparing a slice at every
        // offset cost ~15 instructions a byte of every sign-in's event.
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var i = 0
                while i <= h.count - n.count {
                    if h[i] == first {
                        var k = 1
                        while k < n.count, h[i + k] == n[k] { k += 1 }
                        if k == n.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}

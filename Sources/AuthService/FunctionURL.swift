import PlatformSupport
import StrictJSON

/// How an invocation reached the function: the app's own `Invoke` call (the payload is the
/// event), or a Lambda Function URL (an HTTP payload v2 event whose `body` carries the event).
public enum InvocationShape: Sendable, Equatable {
    case direct
    case functionURL
}

/// The event the handler reads, and how the answer must be shaped.
public struct IncomingEvent: Sendable, Equatable {
    public let shape: InvocationShape
    public let body: [UInt8]

    public init(shape: InvocationShape, body: [UInt8]) {
        self.shape = shape
        self.body = body
    }
}

/// Lets one handler serve both a direct invoke and a Function URL (CONTRACT.md, "Envelope": the
/// HTTP column is used only for Function URL answers).
///
/// Use: `let shape = FunctionURLAdapter.shape(of: event)`, then `unwrap`; when `unwrap` throws,
/// answer `wrap(Envelope.failure(error, ...), statusCode: error.code.httpStatus, shape: shape)`.
public enum FunctionURLAdapter {
    /// A Function URL event wraps the app's event (at most `EventReader.maxEventBytes`, base64
    /// adds a third) in headers and request context; nothing legitimate of either shape is larger
    /// than this, so a larger payload is refused before it is parsed.
    public static let maxRawEventBytes = 4 * EventReader.maxEventBytes

    /// Detects an HTTP payload v2 event (`"version": "2.0"` and an object `requestContext.http`)
    /// and extracts its body, base64-decoding it when `isBase64Encoded` is true. Anything else is
    /// a direct invoke whose body is the event itself, unchanged (a direct event that is not JSON
    /// is left to `EventReader`, which answers INVALID_REQUEST).
    ///
    /// A Function URL event whose body is not a string, is not valid base64 while flagged as
    /// base64, or decodes to more than 64 KiB throws INVALID_REQUEST; so does any payload over
    /// `maxRawEventBytes`. Messages name the problem, never the content.
    public static func unwrap(_ event: [UInt8]) throws(ServiceError) -> IncomingEvent {
        guard event.count <= maxRawEventBytes else {
            throw ServiceError(.invalidRequest, "The event is larger than \(EventReader.maxEventBytes) bytes.")
        }
        guard let request = functionURLRequest(event) else {
            return IncomingEvent(shape: .direct, body: event)
        }
        let body: String
        switch request["body"] {
        case nil, .some(.null):
            body = ""
        case .some(.string(let s)):
            body = s
        default:
            throw ServiceError(.invalidRequest, "The HTTP request body must be a string.")
        }
        let base64: Bool
        switch request["isBase64Encoded"] {
        case nil, .some(.null): base64 = false
        case .some(.bool(let b)): base64 = b
        default: throw ServiceError(.invalidRequest, "The HTTP request's isBase64Encoded must be a boolean.")
        }
        let bytes: [UInt8]
        if base64 {
            guard let decoded = Base64.decode(body) else {
                throw ServiceError(.invalidRequest, "The HTTP request body is not valid base64.")
            }
            bytes = decoded
        } else {
            bytes = Array(body.utf8)
        }
        guard bytes.count <= EventReader.maxEventBytes else {
            throw ServiceError(.invalidRequest, "The event is larger than \(EventReader.maxEventBytes) bytes.")
        }
        return IncomingEvent(shape: .functionURL, body: bytes)
    }

    /// The shape alone, never throwing: how to answer when `unwrap` throws. A payload too large
    /// to parse is classified by looking for the HTTP event's `requestContext` member.
    public static func shape(of event: [UInt8]) -> InvocationShape {
        if event.count <= maxRawEventBytes {
            return functionURLRequest(event) == nil ? .direct : .functionURL
        }
        return contains(event, Array("\"requestContext\"".utf8)) ? .functionURL : .direct
    }

    /// For `.functionURL`: `{"statusCode", "headers": {"content-type": "application/json", ...},
    /// "body": "<envelope JSON>", "isBase64Encoded": false}`; for `.direct`: the envelope itself.
    public static func wrap(_ envelope: JSONValue, statusCode: Int, shape: InvocationShape) -> [UInt8] {
        switch shape {
        case .direct:
            return envelope.serialized()
        case .functionURL:
            let headers = JSONObject([
                ("content-type", .string("application/json")),
                // Answers carry credentials and refresh tokens: no cache may keep them.
                ("cache-control", .string("no-store")),
                ("x-content-type-options", .string("nosniff")),
            ])
            let response = JSONObject([
                ("statusCode", .int(statusCode)),
                ("headers", .object(headers)),
                ("body", .string(envelope.serializedString())),
                ("isBase64Encoded", .bool(false)),
            ])
            return JSONValue.object(response).serialized()
        }
    }

    /// The parsed HTTP payload v2 event, or nil when `event` is not one.
    static func functionURLRequest(_ event: [UInt8]) -> JSONObject? {
        guard let first = event.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }), first == UInt8(ascii: "{") else {
            return nil
        }
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(event) } catch { return nil }
        guard let object = value.objectValue,
              object["version"]?.stringValue == "2.0",
              object["requestContext"]?["http"]?.objectValue != nil
        else { return nil }
        return object
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0] {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }
}

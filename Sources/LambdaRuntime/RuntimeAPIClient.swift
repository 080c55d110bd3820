import CurlHTTP
import PlatformSupport
import StrictJSON

/// The Lambda Runtime API (https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html) over
/// one curl easy handle: the connection to the local runtime endpoint stays open across
/// invocations, and `next` is a long poll with no timeout (no polling, no sleeps).
public final class RuntimeAPIClient {
    public struct Invocation {
        public let requestID: String
        public let deadlineMilliseconds: Int64
        public let invokedFunctionARN: String
        public let traceID: String?
        public let clientContext: String?
        public let cognitoIdentity: String?
        public let event: [UInt8]
    }

    /// The Runtime API refused or failed in a way the process cannot recover from.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let base: String
    private let nextURL: String
    private let handle: EasyHandle

    public init(endpoint: String) throws(HTTPError) {
        base = "http://\(endpoint)/2018-06-01/runtime"
        nextURL = base + "/invocation/next"
        // Lambda caps request payloads at 6 MiB; leave room for a little more before refusing.
        handle = try EasyHandle(maxResponseBytes: 7 << 20)
    }

    public func next() throws(Failure) -> Invocation {
        let response: HTTPResponse
        do throws(HTTPError) {
            response = try handle.perform(HTTPRequest(url: nextURL, timeoutMilliseconds: 0))
        } catch { throw Failure(description: "GET next failed: \(error.message)") }
        guard response.status == 200 else { throw Failure(description: "GET next answered HTTP \(response.status)") }
        // One pass over the headers, names compared without allocating (this runs every invocation).
        var id: String?, deadline: String?, arn: String?, trace: String?, clientContext: String?, cognito: String?
        for (name, value) in response.headers {
            guard name.utf8.count > 15, RuntimeAPIClient.hasPrefixIgnoringCase(name, "lambda-runtime-") else { continue }
            if id == nil, RuntimeAPIClient.equalsIgnoringCase(name, "lambda-runtime-aws-request-id") { id = value }
            else if deadline == nil, RuntimeAPIClient.equalsIgnoringCase(name, "lambda-runtime-deadline-ms") { deadline = value }
            else if arn == nil, RuntimeAPIClient.equalsIgnoringCase(name, "lambda-runtime-invoked-function-arn") { arn = value }
            else if trace == nil, RuntimeAPIClient.equalsIgnoringCase(name, "lambda-runtime-trace-id") { trace = value }
            else if clientContext == nil, RuntimeAPIClient.equalsIgnoringCase(name, "lambda-runtime-client-context") { clientContext = value }
            else if cognito == nil, RuntimeAPIClient.equalsIgnoringCase(name, "lambda-runtime-cognito-identity") { cognito = value }
        }
        guard let id, !id.isEmpty else {
            throw Failure(description: "GET next answered without Lambda-Runtime-Aws-Request-Id")
        }
        return Invocation(
            requestID: id,
            deadlineMilliseconds: deadline.flatMap { Int64($0) } ?? 0,
            invokedFunctionARN: arn ?? "",
            traceID: trace,
            clientContext: clientContext,
            cognitoIdentity: cognito,
            event: response.body)
    }

    /// ASCII case-insensitive comparison against a lowercase literal.
    static func equalsIgnoringCase(_ name: String, _ lower: StaticString) -> Bool {
        name.utf8.count == lower.utf8CodeUnitCount && hasPrefixIgnoringCase(name, lower)
    }

    static func hasPrefixIgnoringCase(_ name: String, _ lower: StaticString) -> Bool {
        let n = lower.utf8CodeUnitCount
        let p = lower.utf8Start
        var k = 0
        for b in name.utf8 {
            if k == n { return true }
            let folded = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            if folded != p[k] { return false }
            k += 1
        }
        return k == n
    }

    /// Posts the answer. Returns the HTTP status (202 expected; 413 means "too large").
    public func respond(requestID: String, body: [UInt8]) throws(Failure) -> Int {
        try post("\(base)/invocation/\(requestID)/response", body: body, errorType: nil)
    }

    public func reportError(requestID: String, errorType: String, message: String) throws(Failure) {
        _ = try post("\(base)/invocation/\(requestID)/error", body: RuntimeAPIClient.errorDocument(errorType, message), errorType: errorType)
    }

    public func reportInitError(errorType: String, message: String) throws(Failure) {
        _ = try post("\(base)/init/error", body: RuntimeAPIClient.errorDocument(errorType, message), errorType: errorType)
    }

    static func errorDocument(_ type: String, _ message: String) -> [UInt8] {
        JSONValue.object(JSONObject([("errorType", .string(type)), ("errorMessage", .string(message)), ("stackTrace", .array([]))])).serialized()
    }

    private func post(_ url: String, body: [UInt8], errorType: String?) throws(Failure) -> Int {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let errorType { headers.append(("Lambda-Runtime-Function-Error-Type", errorType)) }
        let response: HTTPResponse
        do throws(HTTPError) {
            response = try handle.perform(HTTPRequest(method: "POST", url: url, headers: headers, body: body, timeoutMilliseconds: 30_000))
        } catch { throw Failure(description: "POST \(RuntimeAPIClient.pathTail(url)) failed: \(error.message)") }
        if response.status >= 500 {
            throw Failure(description: "POST \(RuntimeAPIClient.pathTail(url)) answered HTTP \(response.status)")
        }
        return response.status
    }

    private static func pathTail(_ url: String) -> String {
        url.split(separator: "/").suffix(1).joined()
    }
}

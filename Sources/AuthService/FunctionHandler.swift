import AccountDomain
import CurlHTTP
import LambdaRuntime
import PlatformSupport
import StrictJSON
import TokenVerification

/// The shape shared by the three functions: unwrap the event (direct invoke or Function URL),
/// read the request, run the operation, answer in the envelope. Expected failures are
/// `ServiceError`s answered normally; anything else is thrown to the runtime (a bug).
public protocol FunctionOperation: AnyObject {
    func perform(_ request: EventReader, context: LambdaContext, deadline: Deadline) throws -> JSONValue
}

public final class FunctionHandler<Operation: FunctionOperation>: LambdaHandler {
    let operation: Operation
    /// The process's HTTP client, whose counters give each invocation's S3/STS/JWKS request
    /// count and sequential network rounds (logged at DEBUG; the bench reads them).
    let http: HTTPClient?
    /// Below this much remaining time nothing is started: the answer is UPSTREAM_UNAVAILABLE.
    static var minimumRemainingMilliseconds: Int64 { 500 }

    public init(_ operation: Operation, http: HTTPClient? = nil) {
        self.operation = operation
        self.http = http
    }

    public func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        http?.resetCounters()
        defer {
            if let http, context.logger.isEnabled(.debug) {
                context.logger.debug("network", [("requests", .int(http.requestCount)), ("rounds", .int(http.roundCount))])
            }
        }
        // The shape to answer in is known even when unwrapping fails.
        var shape = FunctionURLAdapter.shape(of: event)
        let result: Result<JSONValue, ServiceError>
        do {
            let incoming = try FunctionURLAdapter.unwrap(event)
            shape = incoming.shape
            let request = try EventReader(incoming.body)
            let deadline = ServiceRuntime.deadline(for: context)
            guard deadline.remainingMilliseconds > Self.minimumRemainingMilliseconds else {
                throw ServiceError(.upstreamUnavailable, "Too little time is left in this invocation; retry.")
            }
            result = .success(try operation.perform(request, context: context, deadline: deadline))
        } catch let error as ServiceError {
            result = .failure(error)
        }
        switch result {
        case .success(let data):
            return FunctionURLAdapter.wrap(Envelope.success(data, requestID: context.requestID), statusCode: 200, shape: shape)
        case .failure(let error):
            context.logger.debug("refused", [("code", .string(error.code.rawValue))])
            return FunctionURLAdapter.wrap(Envelope.failure(error, requestID: context.requestID), statusCode: error.code.httpStatus, shape: shape)
        }
    }
}

/// Reading helpers shared by the operations.
extension EventReader {
    /// Contract: ID tokens over 16 KiB are INVALID_REQUEST.
    static let maxIDTokenBytes = 16 * 1024

    func provider(_ name: String = "provider") throws(ServiceError) -> IdentityProvider {
        let text = try requiredString(name, maxBytes: 64)
        guard let p = IdentityProvider(rawValue: text) else {
            throw ServiceError(.unsupportedProvider, "Provider must be apple or google.")
        }
        return p
    }

    func idToken() throws(ServiceError) -> String { try requiredString("idToken", maxBytes: EventReader.maxIDTokenBytes) }

    func refreshToken() throws(ServiceError) -> String { try requiredString("refreshToken", maxBytes: 1024) }

    /// Contract: the optional `device` label is at most 64 characters. Counted as Unicode scalars
    /// (grapheme counting would need the stdlib's Unicode tables); control characters are refused
    /// so the label prints as one line. An empty label is no label.
    func deviceLabel() throws(ServiceError) -> String? {
        guard let text = try optionalString("device", maxBytes: 256), !text.isEmpty else { return nil }
        guard text.unicodeScalars.count <= 64 else { throw ServiceError(.invalidRequest, "Field 'device' is longer than 64 characters.") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }) else {
            throw ServiceError(.invalidRequest, "Field 'device' has a control character.")
        }
        return text
    }

    /// A session id as `list` shows them: 32 lowercase hex characters.
    func sessionID() throws(ServiceError) -> String {
        let text = try requiredString("sessionId", maxBytes: 64)
        guard AccountKeys.isHexID(text) else { throw ServiceError(.invalidRequest, "Field 'sessionId' is not a session id.") }
        return text
    }
}

func verify(_ verifier: TokenVerifier, token: String, provider: IdentityProvider, nonce: String?, deadline: Deadline) throws(ServiceError) -> VerifiedIdentity {
    do throws(TokenError) { return try verifier.verify(token, provider: provider, nonce: nonce, deadline: deadline) } catch {
        throw ServiceError.from(error)
    }
}

func storageJSON(_ settings: AccountSettings, prefix: String) -> JSONValue {
    .object(JSONObject([("bucket", .string(settings.bucket)), ("region", .string(settings.region)), ("prefix", .string(prefix))]))
}

func timestamp(_ ms: Int64) -> JSONValue { .string(ISO8601.format(milliseconds: ms)) }

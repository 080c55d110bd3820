import AccountModel
import AccountStore
import StrictJSON
import TokenVerification

/// The request an invocation carries: a JSON object, read field by field with errors that name
/// the field but never echo its value. Unknown fields are ignored.
package struct Request {
    /// Contract: ID tokens over 16 KiB are INVALID_REQUEST.
    package static let maxIDTokenBytes = 16 * 1024

    package let object: JSONObject
    /// The providers this deployment accepts, named when `provider` is refused. The handler
    /// sets the deployment's; a request built elsewhere (tests) names every provider.
    package var acceptedProviders: [IdentityProvider]
    /// The ARN this invocation was made through (the Runtime API's
    /// `Lambda-Runtime-Invoked-Function-Arn`: qualified when an alias was invoked). The handler
    /// sets it; empty for a request built elsewhere.
    package var invokedFunctionARN = ""

    package init(_ object: JSONObject, acceptedProviders: [IdentityProvider] = IdentityProvider.allCases) {
        self.object = object
        self.acceptedProviders = acceptedProviders
    }

    /// A request body (a Function URL's): a JSON object, or INVALID_REQUEST.
    package static func parse(_ bytes: [UInt8]) -> Result<Request, ServiceError> {
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(bytes) } catch {
            return .failure(ServiceError(.invalidRequest, "The event is not valid JSON (\(error.description))."))
        }
        guard let object = value.objectValue else {
            return .failure(ServiceError(.invalidRequest, "The event must be a JSON object."))
        }
        return .success(Request(object))
    }

    /// A string field; nil when absent or null. Wrong type or too long → INVALID_REQUEST.
    package func optionalString(_ name: String, maxBytes: Int = 4096) throws(ServiceError) -> String? {
        guard let v = object[name], !v.isNull else { return nil }
        guard let s = v.stringValue else { throw ServiceError(.invalidRequest, "Field '\(name)' must be a string.") }
        guard s.utf8.count <= maxBytes else {
            throw ServiceError(.invalidRequest, "Field '\(name)' is longer than \(maxBytes) bytes.")
        }
        return s
    }

    package func requiredString(_ name: String, maxBytes: Int = 4096) throws(ServiceError) -> String {
        guard let s = try optionalString(name, maxBytes: maxBytes), !s.isEmpty else {
            throw ServiceError(.invalidRequest, "Field '\(name)' is required.")
        }
        return s
    }

    /// One of `allowed`, or `defaultValue` when absent.
    package func choice(
        _ name: String, _ allowed: [String], default defaultValue: String
    ) throws(ServiceError) -> String {
        guard let s = try optionalString(name, maxBytes: 64) else { return defaultValue }
        guard allowed.contains(s) else {
            throw ServiceError(.invalidRequest, "Field '\(name)' must be one of: \(allowed.joined(separator: ", ")).")
        }
        return s
    }

    /// A provider this service knows. Whether this deployment has it enabled is the verifier's
    /// question (a sign-in or link of a disabled one is UNSUPPORTED_PROVIDER there; an unlink of
    /// one an account still holds goes ahead, so a provider can be retired).
    package func provider(_ name: String = "provider") throws(ServiceError) -> IdentityProvider {
        let text = try requiredString(name, maxBytes: 64)
        guard let p = IdentityProvider(rawValue: text) else {
            throw ServiceError(
                .unsupportedProvider,
                "Field '\(name)' is not a provider this deployment accepts (it accepts: "
                    + "\(IdentityProvider.names(acceptedProviders))).")
        }
        return p
    }

    package func idToken() throws(ServiceError) -> String {
        try requiredString("idToken", maxBytes: Request.maxIDTokenBytes)
    }

    package func refreshToken() throws(ServiceError) -> String { try requiredString("refreshToken", maxBytes: 1024) }

    package func nonce() throws(ServiceError) -> String? { try optionalString("nonce", maxBytes: 512) }

    /// The optional `device` label: at most 64 characters, counted as Unicode scalars (grapheme
    /// counting would link the stdlib's Unicode tables), no control characters so it prints as
    /// one line. An empty label is no label.
    package func deviceLabel() throws(ServiceError) -> String? {
        guard let text = try optionalString("device", maxBytes: 256), !text.isEmpty else { return nil }
        guard text.unicodeScalars.count <= 64 else {
            throw ServiceError(.invalidRequest, "Field 'device' is longer than 64 characters.")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }) else {
            throw ServiceError(.invalidRequest, "Field 'device' has a control character.")
        }
        return text
    }

    /// A session id as `list` shows them: 32 lowercase hex characters.
    package func sessionID() throws(ServiceError) -> String {
        let text = try requiredString("sessionId", maxBytes: 64)
        guard AccountKeys.isHexID(text) else {
            throw ServiceError(.invalidRequest, "Field 'sessionId' is not a session id.")
        }
        return text
    }
}

import StrictJSON

/// Turns an event's bytes into a JSON object, enforcing the contract's limits, and reads typed
/// fields with errors that name the field but never echo its value.
public struct EventReader {
    /// Events over 64 KiB are refused before parsing.
    public static let maxEventBytes = 64 * 1024

    public let object: JSONObject

    public init(_ bytes: [UInt8]) throws(ServiceError) {
        guard bytes.count <= EventReader.maxEventBytes else {
            throw ServiceError(.invalidRequest, "The event is larger than \(EventReader.maxEventBytes) bytes.")
        }
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(bytes) } catch {
            throw ServiceError(.invalidRequest, "The event is not valid JSON (\(error.description)).")
        }
        guard let object = value.objectValue else { throw ServiceError(.invalidRequest, "The event must be a JSON object.") }
        self.object = object
    }

    public init(object: JSONObject) { self.object = object }

    /// A string field; nil when absent or null. Wrong type → INVALID_REQUEST.
    public func optionalString(_ name: String, maxBytes: Int = 4096) throws(ServiceError) -> String? {
        guard let v = object[name], !v.isNull else { return nil }
        guard let s = v.stringValue else { throw ServiceError(.invalidRequest, "Field '\(name)' must be a string.") }
        guard s.utf8.count <= maxBytes else { throw ServiceError(.invalidRequest, "Field '\(name)' is longer than \(maxBytes) bytes.") }
        return s
    }

    public func requiredString(_ name: String, maxBytes: Int = 4096) throws(ServiceError) -> String {
        guard let s = try optionalString(name, maxBytes: maxBytes), !s.isEmpty else {
            throw ServiceError(.invalidRequest, "Field '\(name)' is required.")
        }
        return s
    }

    /// One of `allowed`, or `defaultValue` when absent.
    public func choice(_ name: String, _ allowed: [String], default defaultValue: String) throws(ServiceError) -> String {
        guard let s = try optionalString(name, maxBytes: 64) else { return defaultValue }
        guard allowed.contains(s) else {
            throw ServiceError(.invalidRequest, "Field '\(name)' must be one of: \(allowed.joined(separator: ", ")).")
        }
        return s
    }
}

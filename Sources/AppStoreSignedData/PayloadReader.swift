import PlatformSupport
import StrictJSON

/// Typed reads of a verified payload's members. A required member must be present with its type;
/// an optional one may be absent or null, but when present must have its type. Members this
/// reader is not asked about are ignored (Apple adds fields over time). Errors name the member,
/// never its value.
package struct PayloadReader {
    let object: JSONObject
    /// What the object is, for messages ("transaction", "notification data").
    let context: String

    package init(object: JSONObject, context: String) {
        self.object = object
        self.context = context
    }

    private func value(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    private func wrongType(_ name: String, _ type: String) -> AppStoreSignedDataError {
        .payload("\(context) member \(name) is not \(type)")
    }

    private func missing(_ name: String) -> AppStoreSignedDataError { .payload("\(context) has no \(name)") }

    func optionalString(_ name: String) throws(AppStoreSignedDataError) -> String? {
        guard let value = value(name) else { return nil }
        guard let text = value.stringValue else { throw wrongType(name, "a string") }
        return text
    }

    func string(_ name: String) throws(AppStoreSignedDataError) -> String {
        guard let text = try optionalString(name) else { throw missing(name) }
        guard !text.isEmpty else { throw wrongType(name, "a non-empty string") }
        return text
    }

    func optionalInt64(_ name: String) throws(AppStoreSignedDataError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard let number = value.int64Value else { throw wrongType(name, "an integer") }
        return number
    }

    /// A date: milliseconds since the epoch, not negative.
    func optionalDate(_ name: String) throws(AppStoreSignedDataError) -> Int64? {
        guard let date = try optionalInt64(name) else { return nil }
        guard date >= 0 else { throw wrongType(name, "a date (milliseconds since 1970, not negative)") }
        return date
    }

    func date(_ name: String) throws(AppStoreSignedDataError) -> Int64 {
        guard let date = try optionalDate(name) else { throw missing(name) }
        return date
    }

    func optionalInt(_ name: String) throws(AppStoreSignedDataError) -> Int? {
        guard let number = try optionalInt64(name) else { return nil }
        guard let small = Int32(exactly: number) else { throw wrongType(name, "a small integer") }
        return Int(small)
    }

    func optionalBool(_ name: String) throws(AppStoreSignedDataError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(name, "a boolean") }
        return flag
    }

    func optionalObject(_ name: String, context: String) throws(AppStoreSignedDataError) -> PayloadReader? {
        guard let value = value(name) else { return nil }
        guard let object = value.objectValue else { throw wrongType(name, "an object") }
        return PayloadReader(object: object, context: context)
    }

    /// `environment`, which every App Store payload carries (an app transaction as `receiptType`).
    func environment(_ name: String = "environment") throws(AppStoreSignedDataError) -> AppStoreEnvironment {
        guard let environment = AppStoreEnvironment(rawValue: try string(name)) else {
            throw AppStoreSignedDataError(.environment, "\(context) environment is not a known App Store environment")
        }
        return environment
    }

    /// A UUID (`appAccountToken`), returned in canonical lowercase form so that it compares with
    /// the UUIDs this service writes; anything not in 8-4-4-4-12 hex form is refused.
    func optionalUUID(_ name: String) throws(AppStoreSignedDataError) -> String? {
        guard let text = try optionalString(name)?.lowercasedASCII() else { return nil }
        guard UUIDText.isCanonical(text) else { throw wrongType(name, "a UUID") }
        return text
    }
}

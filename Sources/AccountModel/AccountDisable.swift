import PlatformSupport
import StrictJSON

/// `disabled` in providers.json: an operator's disable of the account, with why, when and who
/// (the operator's STS caller ARN). The reason is for operators; the user is only told to contact
/// support (ACCOUNT_DISABLED).
package struct AccountDisable: Sendable, Equatable {
    package var reason: String
    package var atMs: Int64
    package var by: String

    package init(reason: String, atMs: Int64, by: String) {
        self.reason = reason
        self.atMs = atMs
        self.by = by
    }

    package var json: JSONValue {
        .object(
            JSONObject([
                ("reason", .string(reason)), ("at", .string(ISO8601.format(milliseconds: atMs, fractional: true))),
                ("by", .string(by)),
            ]))
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let reason = o["reason"]?.stringValue,
            let at = o["at"]?.stringValue.flatMap(ISO8601.parse), let by = o["by"]?.stringValue
        else { return nil }
        self.init(reason: reason, atMs: at, by: by)
    }
}

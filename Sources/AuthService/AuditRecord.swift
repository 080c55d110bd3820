import StrictJSON

/// One line per change to an account (docs/API.md, "Operations"): which operation, which account,
/// which provider type, how it ended. Never a token, an email or a provider's `sub`: the UUID is
/// the service's own id, and enough to find the account's files.
struct AuditRecord: Sendable, Equatable {
    var operation: String
    var serviceUserID: String
    var provider: String?
    var outcome: String

    var record: JSONValue {
        .object(
            JSONObject([
                (
                    "audit",
                    .object(
                        JSONObject([
                            ("operation", .string(operation)), ("serviceUserID", .string(serviceUserID)),
                            ("provider", provider.map(JSONValue.string) ?? .null), ("outcome", .string(outcome)),
                        ]))
                )
            ]))
    }
}

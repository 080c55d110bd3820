import StrictJSON

/// One line per change to an account (docs/API.md, "Operations"): which operation, which account,
/// which provider type, how it ended. Never a token, an email or a provider's `sub`: the UUID is
/// the service's own id, and enough to find the account's files. An event about no account
/// (Google's suspension of an identity no account holds, Apple's RESCIND_CONSENT) has no UUID;
/// `details` then carries what the operator needs, still no token, email or `sub`.
package struct AuditRecord: Sendable, Equatable {
    package var operation: String
    package var serviceUserID: String?
    package var provider: String?
    package var outcome: String
    package var details: JSONObject?

    package var record: JSONValue {
        .object(
            JSONObject([
                (
                    "audit",
                    .object(
                        JSONObject(
                            [
                                ("operation", .string(operation)),
                                ("serviceUserID", serviceUserID.map(JSONValue.string) ?? .null),
                                ("provider", provider.map(JSONValue.string) ?? .null), ("outcome", .string(outcome)),
                            ] + (details.map { [("details", JSONValue.object($0))] } ?? [])))
                )
            ]))
    }
}

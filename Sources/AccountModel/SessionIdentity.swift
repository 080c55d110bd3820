import StrictJSON
import TokenVerification

/// The identity a session signed in with: provider, `sub`, and the link id of that identity's
/// link to the account (docs/API.md, auth-refresh rule 5: "sessions follow their identity"). The link id is born with
/// the identity file and copied into providers.json, so a session works only while that very link
/// is listed: unlinking ends it, and linking the same identity again later makes a new link id
/// that old sessions do not carry.
package struct SessionIdentity: Sendable, Equatable {
    package var provider: IdentityProvider
    /// Nil only in records written before sessions carried their identity.
    package var subject: String?
    /// Nil for identities linked before link ids existed.
    package var linkID: String?

    package init(provider: IdentityProvider, subject: String?, linkID: String?) {
        self.provider = provider
        self.subject = subject
        self.linkID = linkID
    }

    package var json: JSONValue {
        .object(
            JSONObject([
                ("provider", .string(provider.rawValue)), ("sub", subject.map(JSONValue.string) ?? .null),
                ("linkID", linkID.map(JSONValue.string) ?? .null),
            ]))
    }

    package init?(json: JSONValue?) {
        guard let o = json?.objectValue, let p = o["provider"]?.stringValue.flatMap(IdentityProvider.init(rawValue:))
        else { return nil }
        self.init(provider: p, subject: o["sub"]?.stringValue, linkID: o["linkID"]?.stringValue)
    }
}

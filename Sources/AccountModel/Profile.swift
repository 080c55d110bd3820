import PlatformSupport
import PurchaseModel
import StrictJSON
import TokenVerification

/// `users/{uuid}/account/profile.json`. Fields this version does not know are kept as read, so
/// an older function never drops what a newer one wrote.
package struct Profile: Sendable, Equatable {
    package static let trialDays: Int64 = 30

    package var serviceUserID: String
    package var displayName: String
    package var email: String?
    package var createdAt: String
    package var lastUpdated: String
    package var primaryProvider: IdentityProvider
    package var subscription: JSONValue
    package var preferences: JSONValue
    package var extra: JSONObject = JSONObject()

    /// A new account's profile: free tier for 30 days, the contract's default preferences.
    package static func new(
        uuid: String, displayName: String, email: String?, provider: IdentityProvider, nowMs: Int64
    ) -> Profile {
        let now = ISO8601.format(milliseconds: nowMs)
        let subscription: JSONValue = .object(
            JSONObject([
                ("tier", "free"), ("startDate", .string(now)),
                ("expiryDate", .string(ISO8601.format(milliseconds: nowMs + trialDays * 86_400_000))),
                ("storageLimit", .int(ProductCatalog.freeStorageLimit)), ("storageUsed", .int(0)),
            ]))
        let preferences: JSONValue = ["uploadQuality": "high", "autoBackup": true, "wifiOnlyBackup": true]
        return Profile(
            serviceUserID: uuid, displayName: displayName, email: email, createdAt: now, lastUpdated: now,
            primaryProvider: provider, subscription: subscription, preferences: preferences)
    }

    package var json: JSONValue {
        var o = JSONObject([
            ("version", .int(1)), ("serviceUserID", .string(serviceUserID)), ("displayName", .string(displayName)),
            ("email", email.map(JSONValue.string) ?? .null), ("createdAt", .string(createdAt)),
            ("lastUpdated", .string(lastUpdated)), ("primaryProvider", .string(primaryProvider.rawValue)),
            ("subscription", subscription), ("preferences", preferences),
        ])
        for (k, v) in extra where o[k] == nil { o[k] = v }
        return .object(o)
    }

    package init(
        serviceUserID: String, displayName: String, email: String?, createdAt: String, lastUpdated: String,
        primaryProvider: IdentityProvider, subscription: JSONValue, preferences: JSONValue
    ) {
        self.serviceUserID = serviceUserID
        self.displayName = displayName
        self.email = email
        self.createdAt = createdAt
        self.lastUpdated = lastUpdated
        self.primaryProvider = primaryProvider
        self.subscription = subscription
        self.preferences = preferences
    }

    package init?(json: JSONValue) {
        guard let o = json.objectValue, let id = o["serviceUserID"]?.stringValue,
            let created = o["createdAt"]?.stringValue,
            let primary = o["primaryProvider"]?.stringValue.flatMap(IdentityProvider.init(rawValue:))
        else { return nil }
        self.init(
            serviceUserID: id, displayName: o["displayName"]?.stringValue ?? "", email: o["email"]?.stringValue,
            createdAt: created, lastUpdated: o["lastUpdated"]?.stringValue ?? created, primaryProvider: primary,
            subscription: o["subscription"] ?? .object(JSONObject()),
            preferences: o["preferences"] ?? .object(JSONObject()))
        let known: Set<String> = [
            "version", "serviceUserID", "displayName", "email", "createdAt", "lastUpdated", "primaryProvider",
            "subscription", "preferences",
        ]
        for (k, v) in o where !known.contains(k) { extra[k] = v }
    }
}

/// Parses a stored JSON document, or reports it as corrupt (never overwritten silently).
package func decodeDocument<T>(_ bytes: [UInt8], key: String, _ make: (JSONValue) -> T?) throws(AccountError) -> T {
    let value: JSONValue
    do throws(JSONError) { value = try JSONParser.parse(bytes) } catch {
        throw .corruptDocument(key: key, reason: error.description)
    }
    guard let doc = make(value) else { throw .corruptDocument(key: key, reason: "missing or mistyped fields") }
    return doc
}

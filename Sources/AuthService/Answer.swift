import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import PlatformSupport
import PurchaseModel
import StrictJSON
import TokenVerification

/// The `data` of a successful answer. Every answer's JSON is built in this file (docs/API.md
/// describes each shape), so the shapes are read and changed in one place.
package struct Answer {
    package let data: JSONValue
    /// What the operator should see in the invocation's log line beside the answer (never a
    /// token, a code or personal data): e.g. why Apple revocation did not happen.
    package var log: [(String, JSONValue)] = []
    /// The account changes this answer made, one audit line each (none: no change).
    package var audits: [AuditRecord] = []
    /// Dedicated metric counts (`InvocationMetrics.countNames`).
    package var counts: [String: Int] = [:]
}

extension Answer {
    /// The one account change most answers make (nil: none).
    package var audit: AuditRecord? {
        get { audits.first }
        set { audits = newValue.map { [$0] } ?? [] }
    }

    /// auth-signin.
    package static func signedIn(_ o: SignInOutcome, settings: AccountSettings) -> Answer {
        var answer = Answer(
            data: .object(
                JSONObject([
                    ("isNewUser", .bool(o.isNewUser)), ("user", user(o.account)),
                    ("credentials", credentials(o.session.credentials)),
                    ("storage", storage(settings, prefix: o.session.storagePrefix)),
                    ("refreshToken", .string(o.session.refreshToken.value)),
                    ("refreshTokenExpiresAt", timestamp(o.session.refreshTokenExpiresAtMs)),
                ])))
        if o.isNewUser {
            answer.counts["SignUps"] = 1
            answer.audit = AuditRecord(
                operation: "signup", serviceUserID: o.account.serviceUserID,
                provider: o.account.providers.primaryProvider.rawValue, outcome: "created")
        } else if o.rekeyed {
            answer.counts["AppleRekeys"] = 1
            answer.audit = AuditRecord(
                operation: "rekey", serviceUserID: o.account.serviceUserID, provider: "apple", outcome: "rekeyed")
        }
        return answer
    }

    /// auth-refresh `refresh`.
    package static func refreshed(_ o: RefreshOutcome, settings: AccountSettings) -> Answer {
        Answer(
            data: .object(
                JSONObject([
                    ("credentials", credentials(o.session.credentials)),
                    ("storage", storage(settings, prefix: o.session.storagePrefix)),
                    ("refreshToken", .string(o.session.refreshToken.value)),
                    ("refreshTokenExpiresAt", timestamp(o.session.refreshTokenExpiresAtMs)),
                    ("user", user(o.account)),
                ])))
    }

    /// `signout`, `signoutSession`.
    package static let signedOut = Answer(data: .object(JSONObject([("signedOut", .bool(true))])))

    /// `signoutOthers`: how many sessions it ended.
    package static func signedOut(count: Int) -> Answer {
        Answer(data: .object(JSONObject([("signedOut", .int(count))])))
    }

    /// `list`.
    package static func sessions(_ list: [SessionSummary]) -> Answer {
        Answer(
            data: .object(
                JSONObject([
                    (
                        "sessions",
                        .array(
                            list.map { s in
                                .object(
                                    JSONObject([
                                        ("sessionId", .string(s.sessionID)), ("provider", .string(s.provider.rawValue)),
                                        ("device", s.device.map(JSONValue.string) ?? .null),
                                        ("signedInAt", timestamp(s.signedInAtMs)),
                                        ("lastRefreshedAt", timestamp(s.lastRefreshedAtMs)),
                                        ("expiresAt", timestamp(s.expiresAtMs)), ("current", .bool(s.isCurrent)),
                                    ]))
                            })
                    )
                ])))
    }

    /// auth-link `link` and `unlink`.
    package static func linked(_ o: LinkOutcome, provider: IdentityProvider) -> Answer {
        var answer = Answer(
            data: .object(JSONObject([("status", .string(o.status.rawValue)), ("user", user(o.account))])))
        answer.audit = AuditRecord(
            operation: o.status == .unlinked ? "unlink" : "link", serviceUserID: o.account.serviceUserID,
            provider: provider.rawValue, outcome: o.status.rawValue)
        return answer
    }

    /// auth-link `delete`. `appleTokensRevoked` is null when the account had no Apple identity
    /// or Apple revocation is not configured.
    package static func deleted(_ o: DeletionOutcome, appleTokensRevoked: Bool?, appleOutcome: String?) -> Answer {
        Answer(
            data: .object(
                JSONObject([
                    ("deleted", .bool(true)), ("serviceUserID", .string(o.serviceUserID)),
                    ("purge", .string(o.purgeComplete ? "complete" : "pending")),
                    ("appleTokensRevoked", appleTokensRevoked.map(JSONValue.bool) ?? .null),
                ])),
            log: appleOutcome.map { [("appleRevocation", .string($0))] } ?? [],
            audits: [
                AuditRecord(
                    operation: "delete", serviceUserID: o.serviceUserID, provider: nil,
                    outcome: o.purgeComplete ? "purge complete" : "purge pending")
            ],
            counts: ["Deletions": 1])
    }

    /// Apple's notifications (Sign in with Apple: `processed`, `duplicate`, `unknownIdentity` or
    /// `ignored`; App Store: `processed`, `duplicate`, `unknownPurchase` or `ignored`).
    package static func event(status: String) -> Answer {
        Answer(data: .object(JSONObject([("status", .string(status))])))
    }

    /// auth-link `claimPurchase`.
    /// `appStoreAPI`: what the App Store Server API gave the claim, one word for the log (nil: not asked).
    package static func claimed(_ o: ClaimOutcome, appStoreAPI: String? = nil) -> Answer {
        Answer(
            data: .object(
                JSONObject([
                    ("status", .string(o.status.rawValue)),
                    (
                        "subscription",
                        Subscription.judged(o.account.profile.subscription, nowMs: Clock.nowMilliseconds())
                    ),
                    ("user", user(o.account)),
                ])),
            log: appStoreAPI.map { [("appStoreAPI", .string($0))] } ?? [],
            audits: [
                AuditRecord(
                    operation: "claimPurchase", serviceUserID: o.account.serviceUserID, provider: nil,
                    outcome: o.status.rawValue)
            ],
            counts: o.status == .claimed ? ["PurchaseClaims": 1] : [:])
    }

    /// The scheduled run's summary; an Apple link it unlinked while dropping the deletion Apple's
    /// event had started (another provider was linked since) is audited as the event's unlink is.
    package static func scheduledRun(_ o: ScheduledRunOutcome) -> Answer {
        var answer = Answer(data: .object(JSONObject([("purged", .int(o.purged)), ("pending", .int(o.pending))])))
        answer.audits = o.appleUnlinks.map {
            AuditRecord(
                operation: "unlink", serviceUserID: $0, provider: IdentityProvider.apple.rawValue, outcome: "unlinked")
        }
        return answer
    }

    // MARK: parts

    /// The `user` object of every answer that carries one.
    package static func user(_ a: Account) -> JSONValue {
        let p = a.profile
        return .object(
            JSONObject([
                ("serviceUserID", .string(p.serviceUserID)), ("displayName", .string(p.displayName)),
                ("email", p.email.map(JSONValue.string) ?? .null),
                ("createdAt", .string(p.createdAt)), ("lastUpdated", .string(p.lastUpdated)),
                ("primaryProvider", .string(a.providers.primaryProvider.rawValue)),
                ("providers", .array(a.providers.providers.map(provider))),
                // Judged against the clock when read (v5): nothing stays paid past its end.
                ("subscription", Subscription.judged(p.subscription, nowMs: Clock.nowMilliseconds())),
                ("preferences", p.preferences),
            ]))
    }

    /// One linked provider as the API shows it (no display name, no link id).
    package static func provider(_ link: ProviderLink) -> JSONValue {
        .object(
            JSONObject([
                ("type", .string(link.type.rawValue)), ("id", .string(link.id)),
                ("email", link.email.map(JSONValue.string) ?? .null),
                ("isPrimary", .bool(link.isPrimary)), ("linkedAt", .string(link.linkedAt)),
                ("lastUsed", .string(link.lastUsed)),
            ]))
    }

    package static func credentials(_ c: TemporaryCredentials) -> JSONValue {
        .object(
            JSONObject([
                ("accessKeyId", .string(c.accessKeyID)), ("secretAccessKey", .string(c.secretAccessKey)),
                ("sessionToken", .string(c.sessionToken)), ("expiration", .string(c.expiration)),
            ]))
    }

    package static func storage(_ settings: AccountSettings, prefix: String) -> JSONValue {
        .object(
            JSONObject([
                ("bucket", .string(settings.bucket)), ("region", .string(settings.region)), ("prefix", .string(prefix)),
            ]))
    }

    package static func timestamp(_ ms: Int64) -> JSONValue { .string(ISO8601.format(milliseconds: ms)) }
}

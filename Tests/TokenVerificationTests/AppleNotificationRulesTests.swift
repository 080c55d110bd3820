import StrictJSON
import Testing

@testable import TokenVerification

/// Sign in with Apple notifications' claim rules (docs/API.md, "Notifications"): what Apple sends
/// is read, string or object `events`; everything else is refused with a message that names the
/// rule, never a value. (Signatures and keys are the ID tokens' and are tested there; the whole
/// path runs in Tests/integration/test_deletion.py.)
@Suite struct AppleNotificationRulesTests {
    let now: Int64 = 1_800_000_000
    let rules = AppleNotificationRules(
        issuers: ["https://appleid.apple.com"], audiences: ["com.example.photos"], leeway: 60)

    func claims(_ edit: (inout JSONObject) -> Void = { _ in }) -> JSONObject {
        var o = JSONObject([
            ("iss", .string("https://appleid.apple.com")), ("aud", .string("com.example.photos")),
            ("iat", .int(now - 10)), ("jti", .string("f1d9a7c3e2b84b0f")),
            (
                "events",
                .string(
                    #"{"type":"email-disabled","sub":"001234.abc.0001","email":"x@privaterelay.appleid.com","is_private_email":"true","event_time":1799999990}"#
                )
            ),
        ])
        edit(&o)
        return o
    }

    func refusal(_ edit: (inout JSONObject) -> Void) -> String? {
        do throws(TokenError) {
            _ = try rules.validate(claims(edit), now: now)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func whatAppleSendsIsRead() throws {
        let n = try rules.validate(claims(), now: now)
        #expect(
            n
                == AppleAccountNotification(
                    eventType: "email-disabled", subject: "001234.abc.0001", notificationID: "f1d9a7c3e2b84b0f",
                    eventTime: 1_799_999_990))
        // `events` as an object, `aud` as a list, a future `exp`.
        let object = try rules.validate(
            claims {
                $0["events"] = .object(JSONObject([("type", .string("account-delete")), ("sub", .string("s.1"))]))
                $0["aud"] = .array([.string("other"), .string("com.example.photos")])
                $0["exp"] = .int(now + 300)
            }, now: now)
        #expect(object.eventType == "account-delete" && object.subject == "s.1" && object.eventTime == nil)
    }

    @Test func everyRuleRefuses() {
        let cases: [(String, (inout JSONObject) -> Void)] = [
            ("issuer", { $0["iss"] = .string("https://accounts.google.com") }),
            ("audience", { $0["aud"] = .string("com.example.other") }),
            ("no audience", { $0["aud"] = nil }),
            // The ID tokens' audience rule, shared: a list holding a non-string is refused.
            ("non-string", { $0["aud"] = .array([.int(1), .string("com.example.photos")]) }),
            ("iat", { $0["iat"] = nil }),
            ("in the future", { $0["iat"] = .int(1_800_000_000 + 120) }),
            ("24 hours", { $0["iat"] = .int(1_800_000_000 - 24 * 3600 - 61) }),
            ("expired", { $0["exp"] = .int(1_800_000_000 - 61) }),
            ("expiry", { $0["exp"] = .string("soon") }),
            ("jti", { $0["jti"] = nil }),
            ("jti", { $0["jti"] = .string("has space") }),
            ("jti", { $0["jti"] = .string(String(repeating: "a", count: 129)) }),
            ("no events", { $0["events"] = nil }),
            ("not valid JSON", { $0["events"] = .string("{") }),
            ("duplicate", { $0["events"] = .string(#"{"type":"a","type":"b","sub":"s"}"#) }),
            ("not a JSON object", { $0["events"] = .string("[1]") }),
            ("no type", { $0["events"] = .string(#"{"sub":"s"}"#) }),
            ("no subject", { $0["events"] = .string(#"{"type":"consent-revoked"}"#) }),
            ("valid provider user id", { $0["events"] = .string(#"{"type":"consent-revoked","sub":"../x"}"#) }),
            ("event time", { $0["events"] = .string(#"{"type":"consent-revoked","sub":"s","event_time":"x"}"#) }),
        ]
        for (rule, edit) in cases {
            let message = refusal(edit)
            #expect(message?.contains(rule) == true, "\(rule): \(message ?? "accepted")")
            #expect(message?.contains("001234.abc.0001") != true, "a refusal quoted the subject")
        }
    }

    @Test func theLeewayAndTheAgeLimitAreInclusive() {
        #expect(refusal { $0["iat"] = .int(1_800_000_000 + 60) } == nil)
        #expect(refusal { $0["iat"] = .int(1_800_000_000 - 24 * 3600 - 60) } == nil)
        #expect(refusal { $0["exp"] = .int(1_800_000_000 - 60) } == nil)
    }
}

import StrictJSON
import Testing

@testable import TokenVerification

/// Google's security event tokens' claim rules (docs/API.md, "Google's security events"): what Google
/// sends is read, every event and subject kind; everything else is refused with a message naming the
/// rule. (Keys are the verifier's and are tested there; the whole path runs in
/// Tests/integration/test_google_risc.py.)
@Suite struct SecurityEventRulesTests {
    let now: Int64 = 1_800_000_000
    let rules = SecurityEventRules(
        issuers: VerifierConfiguration.googleRISCIssuers, audiences: ["123-app.apps.googleusercontent.com"], leeway: 60)
    static let disabled = "https://schemas.openid.net/secevent/risc/event-type/account-disabled"

    func claims(_ edit: (inout JSONObject) -> Void = { _ in }) -> JSONObject {
        let subject = JSONObject([
            ("subject_type", "iss-sub"), ("iss", "https://accounts.google.com/"), ("sub", "7375626A656374"),
        ])
        var o = JSONObject([
            ("iss", "https://accounts.google.com/"), ("aud", "123-app.apps.googleusercontent.com"),
            ("iat", .int(now - 10)), ("jti", "756E69717565206964656E746966696572"),
            (
                "events",
                .object(
                    JSONObject([
                        (Self.disabled, .object(JSONObject([("subject", .object(subject)), ("reason", "hijacking")])))
                    ]))
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

    @Test func googlesExampleTokenIsRead() throws {
        let set = try rules.validate(claims(), now: now)
        #expect(set.eventID == "756E69717565206964656E746966696572" && set.issuedAt == now - 10)
        let event = try #require(set.events.first)
        #expect(event.kind == .accountDisabled && event.subject == "7375626A656374" && event.reason == "hijacking")
        #expect(event.subjectType == "iss-sub")
    }

    @Test func bothIssuerFormsNoExpAndEveryKnownTypeAreAccepted() throws {
        let plain = try rules.validate(
            claims {
                $0["iss"] = "https://accounts.google.com"
                $0["exp"] = .int(1)
            }, now: now)
        #expect(plain.events.count == 1)
        for kind in GoogleSecurityEvent.Kind.allCases {
            guard let uri = kind.uri else { continue }
            let set = try rules.validate(
                claims { $0["events"] = .object(JSONObject([(uri, .object(JSONObject([("state", "s 1")])))])) },
                now: now)
            #expect(set.events.first?.kind == kind && set.events.first?.state == "s 1")
        }
        // The OAuth events live in the oauth namespace: the risc spelling is not theirs.
        let wrong = try rules.validate(
            claims {
                $0["events"] = .object(
                    JSONObject([
                        ("https://schemas.openid.net/secevent/risc/event-type/tokens-revoked", .object(JSONObject()))
                    ]))
            }, now: now)
        #expect(wrong.events.first?.kind == .other)
    }

    @Test func subjectsOfOtherKindsNameNoIdentity() throws {
        func subject(_ o: JSONObject) throws -> String? {
            try rules.validate(
                claims {
                    $0["events"] = .object(
                        JSONObject([(Self.disabled, .object(JSONObject([("subject", .object(o))])))]))
                }, now: now
            ).events.first?.subject
        }
        #expect(
            try subject(JSONObject([("subject_type", "id_token_claims"), ("sub", "42"), ("email", "a@b.c")])) == "42")
        #expect(
            try subject(JSONObject([("subject_type", "iss-sub"), ("iss", "https://evil.example"), ("sub", "42")]))
                == nil)
        #expect(
            try subject(
                JSONObject([("subject_type", "oauth_token"), ("token_identifier_alg", "prefix"), ("token", "1//x")]))
                == nil)
    }

    @Test func everyRuleRefuses() {
        let cases: [(String, (inout JSONObject) -> Void)] = [
            ("issuer", { $0["iss"] = "accounts.google.com" }),
            ("audience", { $0["aud"] = "other.apps.googleusercontent.com" }),
            ("no iat", { $0["iat"] = nil }),
            ("iat ahead", { $0["iat"] = .int(self.now + 120) }),
            ("over 30 days", { $0["iat"] = .int(self.now - 31 * 86_400) }),
            ("no jti", { $0["jti"] = nil }),
            ("blank in jti", { $0["jti"] = "a b" }),
            ("no events", { $0["events"] = nil }),
            ("empty events", { $0["events"] = .object(JSONObject()) }),
            ("event not an object", { $0["events"] = .object(JSONObject([(Self.disabled, "x")])) }),
            (
                "subject not an object",
                { $0["events"] = .object(JSONObject([(Self.disabled, .object(JSONObject([("subject", "x")])))])) }
            ),
        ]
        for (what, edit) in cases {
            #expect(refusal(edit) != nil, "\(what) was accepted")
        }
        #expect(refusal { $0["iat"] = .int(self.now + 30) } == nil, "within the leeway")
    }
}

import StrictJSON
import Testing

@testable import TokenVerification

/// Firebase's own claim rules (issue 13; `FirebaseClaimRules`): the uid's length on top of the
/// identity character rule, `auth_time`, anonymous users, and what is taken from the token.
@Suite struct FirebaseClaimTests {
    // MARK: Accepted, and what is read

    @Test func genuineTokenIsAcceptedAndMapped() throws {
        let h = try Harness()
        let token = try h.token(.firebase, template: [("name", "Ada Lovelace"), ("email", "ada@example.com")])
        let identity = try h.verify(token, .firebase).get()
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .firebase, subject: Harness.firebaseSub, email: "ada@example.com", emailVerified: true,
                    name: "Ada Lovelace"))
    }

    /// `firebase.identities` names the Apple and Google accounts Firebase linked; none of it is
    /// taken (it would be Firebase's word for an Apple or Google `sub`).
    @Test func firebaseIdentitiesAreNotRead() throws {
        let h = try Harness()
        let token = try h.token(
            .firebase,
            template: [
                ("sign_in_provider", "apple.com"),
                (
                    "identities",
                    ["apple.com": [.string(Harness.appleSub)], "google.com": [.string(Harness.googleSub)]]
                ),
            ])
        let identity = try h.verify(token, .firebase).get()
        #expect(identity.provider == .firebase && identity.subject == Harness.firebaseSub)
        #expect(identity.realUserStatus == nil && identity.isPrivateEmail == nil)
    }

    @Test func everySignInMethodButAnonymousIsAccepted() throws {
        let h = try Harness()
        for method in ["password", "google.com", "apple.com", "phone", "custom", "emailLink", "oidc.example"] {
            let token = try h.token(.firebase, template: [("sign_in_provider", .string(method))])
            #expect(h.verify(token, .firebase).identity != nil, "\(method)")
        }
    }

    // MARK: sub

    @Test func subjectOfAtMost128CharactersIsAccepted() throws {
        let h = try Harness()
        let longest = String(repeating: "u", count: 128)
        #expect(
            h.verify(try h.token(.firebase, claims: ["sub": .string(longest)]), .firebase).identity?.subject == longest)
        let tooLong = try h.token(.firebase, claims: ["sub": .string(longest + "u")])
        expectRefused(
            h.verify(tooLong, .firebase), .invalid, "longer than Firebase's 128-character uid", token: tooLong)
        // Apple and Google keep the 255 limit of the identity rule.
        let google = try h.token(.google, claims: ["sub": .string(longest + "u")])
        #expect(h.verify(google, .google).identity != nil)
    }

    @Test func subjectFollowsTheIdentityCharacterRule() throws {
        let h = try Harness()
        // Custom-token uids may hold characters Firebase allows and S3 keys here do not.
        for sub in ["", "a/b", "..", "user@example.com", "uid:1", "tr\u{e4}ger", "a b"] {
            let token = try h.token(.firebase, claims: ["sub": .string(sub)])
            expectRefused(h.verify(token, .firebase), .invalid, "subject is not a valid provider user id", token: token)
        }
        let numeric = try h.token(.firebase, claims: ["sub": 1234])
        expectRefused(h.verify(numeric, .firebase), .invalid, "token has no subject", token: numeric)
    }

    // MARK: auth_time

    @Test func authTimeMustBePresentAndAnIntegerTime() throws {
        let h = try Harness()
        let missing = try h.token(.firebase, drop: ["auth_time"])
        expectRefused(h.verify(missing, .firebase), .invalid, "no authentication time (auth_time)", token: missing)
        for value: JSONValue in [.string(String(h.clock.now)), .null, .bool(true), .number("1.5")] {
            let token = try h.token(.firebase, claims: ["auth_time": value])
            expectRefused(
                h.verify(token, .firebase), .invalid, "authentication time (auth_time) is not an integer time",
                token: token)
        }
    }

    @Test func authTimeInTheFutureIsRefused() throws {
        let h = try Harness()
        let ahead = try h.token(.firebase, template: [("auth_time", .int(h.clock.now + 300))])
        expectRefused(h.verify(ahead, .firebase), .invalid, "(auth_time) is in the future", token: ahead)
        let beyondLeeway = try h.token(.firebase, template: [("auth_time", .int(h.clock.now + 75))])
        expectRefused(h.verify(beyondLeeway, .firebase), .invalid, "(auth_time) is in the future", token: beyondLeeway)
        // The leeway iat gets.
        let withinLeeway = try h.token(.firebase, template: [("auth_time", .int(h.clock.now + 50))])
        #expect(h.verify(withinLeeway, .firebase).identity != nil)
    }

    /// A token refreshed hours after the sign-in carries the old auth_time: accepted.
    @Test func oldAuthTimeOfARefreshedTokenIsAccepted() throws {
        let h = try Harness()
        let token = try h.token(.firebase, template: [("auth_time", .int(h.clock.now - 30 * 86400))])
        #expect(h.verify(token, .firebase).identity != nil)
    }

    // MARK: Anonymous users

    @Test func anonymousUserIsRefusedByDefault() throws {
        let h = try Harness()
        let token = try h.token(.firebase, template: [("sign_in_provider", "anonymous")])
        expectRefused(
            h.verify(token, .firebase), .invalid, "anonymous Firebase users are not accepted by this deployment",
            token: token)
    }

    @Test func anonymousUserIsAcceptedWhenAllowed() throws {
        let h = try Harness(allowAnonymous: true)
        let token = try h.token(.firebase, template: [("sign_in_provider", "anonymous")])
        let identity = try h.verify(token, .firebase).get()
        #expect(identity.subject == Harness.firebaseSub && identity.email == nil && identity.name == nil)
    }

    /// Without `firebase.sign_in_provider` an anonymous user could not be told apart: refused,
    /// whether anonymous users are allowed or not.
    @Test func missingOrMalformedSignInProviderIsRefused() throws {
        for allowAnonymous in [false, true] {
            let h = try Harness(allowAnonymous: allowAnonymous)
            let noClaim = try h.token(.firebase, drop: ["firebase"])
            expectRefused(h.verify(noClaim, .firebase), .invalid, "token has no firebase claim", token: noClaim)
            let notObject = try h.token(.firebase, claims: ["firebase": "anonymous"])
            expectRefused(h.verify(notObject, .firebase), .invalid, "claim firebase is not an object", token: notObject)
            let noMethod = try h.token(.firebase, claims: ["firebase": ["identities": [:]]])
            expectRefused(
                h.verify(noMethod, .firebase), .invalid, "token has no firebase.sign_in_provider", token: noMethod)
            let notString = try h.token(.firebase, claims: ["firebase": ["sign_in_provider": ["anonymous"]]])
            expectRefused(
                h.verify(notString, .firebase), .invalid, "firebase.sign_in_provider is not a string", token: notString)
        }
    }

    // MARK: The shared rules hold for Firebase too

    @Test func sharedTimeRulesApply() throws {
        let h = try Harness()
        let expired = try h.token(.firebase, template: [("now", .int(h.clock.now - 7200))])
        expectRefused(h.verify(expired, .firebase), .expired, "expired", token: expired)
        let future = try h.token(.firebase, template: [("now", .int(h.clock.now + 300))])
        expectRefused(h.verify(future, .firebase), .invalid, "issue time (iat) is in the future", token: future)
        let noExp = try h.token(.firebase, drop: ["exp"])
        expectRefused(h.verify(noExp, .firebase), .invalid, "no expiry", token: noExp)
    }

    /// Firebase's tokens carry no nonce (the app's nonce goes to the provider it signed in with),
    /// so a request that sends one is refused rather than the nonce ignored.
    @Test func aRequestNonceNeedsANonceClaim() throws {
        let h = try Harness()
        let token = try h.token(.firebase)
        expectRefused(h.verify(token, .firebase, nonce: "n-1"), .invalid, "token has no nonce", token: token)
    }

    @Test func malformedProfileClaimsAreRefused() throws {
        let h = try Harness()
        for (name, value) in [("email_verified", JSONValue.string("yes")), ("email", .bool(true)), ("name", .int(1))] {
            let token = try h.token(.firebase, claims: .object(JSONObject([(name, value)])))
            expectRefused(h.verify(token, .firebase), .invalid, "claim \(name)", token: token)
        }
    }
}

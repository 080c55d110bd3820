import StrictJSON
import Testing

@testable import TokenVerification

/// The attack catalogue for Firebase ID tokens (issue 13): other issuers, the other providers'
/// tokens and keys, other audiences, other algorithms. Every token comes from the stand-in (its
/// own Firebase key and JWKS); each must be refused with a message that names the rule and quotes
/// nothing of the token.
@Suite struct FirebaseAttackTests {
    static let issuer = "https://securetoken.google.com/photobackup-test"

    // MARK: Issuer

    @Test func otherIssuersAreRefused() throws {
        let h = try Harness()
        #expect(h.idp.firebaseProjectID == "photobackup-test")
        for iss in [
            "https://appleid.apple.com", "https://accounts.google.com", "accounts.google.com",
            "https://securetoken.google.com/another-project", "https://securetoken.google.com/photobackup-test/",
            "https://securetoken.google.com/photobackup-test-2", "https://securetoken.google.com/",
            "http://securetoken.google.com/photobackup-test", "https://SECURETOKEN.google.com/photobackup-test",
            "securetoken.google.com/photobackup-test", "https://session.firebase.google.com/photobackup-test",
            "photobackup-test",
        ] {
            let token = try h.token(.firebase, claims: ["iss": .string(iss)])
            expectRefused(h.verify(token, .firebase), .invalid, "issuer is not this Firebase project's", token: token)
        }
        let none = try h.token(.firebase, drop: ["iss"])
        expectRefused(h.verify(none, .firebase), .invalid, "issuer is not this Firebase project's", token: none)
    }

    /// Another project's genuine token (its issuer and audience, same signing keys: Google signs
    /// every project's tokens with the same securetoken keys) is not this deployment's.
    @Test func anotherProjectsTokenIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.firebase, template: [("project", "another-project")])
        expectRefused(h.verify(token, .firebase), .invalid, "issuer is not this Firebase project's", token: token)
        // Its audience alone, with this project's issuer, is refused on the audience.
        let mixed = try h.token(.firebase, claims: ["aud": "another-project"])
        expectRefused(
            h.verify(mixed, .firebase), .invalid, "audience is not this deployment's Firebase project", token: mixed)
    }

    // MARK: The other providers

    @Test func googleIDTokenPresentedAsFirebaseIsRefused() throws {
        let h = try Harness()
        let google = try h.token(.google)
        expectRefused(h.verify(google, .firebase), .invalid, "key id not in Firebase's JWKS", token: google)
        // Firebase's claims signed with Google's key: the key is still Google's.
        let dressed = try h.token(
            .google, claims: ["iss": .string(Self.issuer), "aud": "photobackup-test", "auth_time": .int(h.clock.now)])
        expectRefused(h.verify(dressed, .firebase), .invalid, "key id not in Firebase's JWKS", token: dressed)
        let apple = try h.token(.apple)
        expectRefused(h.verify(apple, .firebase), .invalid, "key id not in Firebase's JWKS", token: apple)
    }

    @Test func firebaseTokenPresentedAsGoogleOrAppleIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.firebase)
        expectRefused(h.verify(token, .google), .invalid, "key id not in Google's JWKS", token: token)
        expectRefused(h.verify(token, .apple), .invalid, "key id not in Apple's JWKS", token: token)
    }

    /// Were Google's and Firebase's key sets ever the same, the issuer still tells the tokens apart.
    @Test func withSharedKeysTheIssuerStillDecides() throws {
        let h = try Harness(adjust: { $0.google.jwksURL = $0.firebase.jwksURL })
        let firebase = try h.token(.firebase, claims: ["aud": .string(h.idp.googleAudience)])
        expectRefused(h.verify(firebase, .google), .invalid, "issuer is not Google's", token: firebase)
        let googleShaped = try h.token(
            .firebase, claims: ["iss": "https://accounts.google.com", "aud": .string(h.idp.googleAudience)])
        expectRefused(
            h.verify(googleShaped, .firebase), .invalid, "issuer is not this Firebase project's", token: googleShaped)
        #expect(h.verify(try h.token(.firebase), .firebase).identity?.provider == .firebase)
    }

    // MARK: Audience

    @Test func wrongAudienceIsRefused() throws {
        let h = try Harness()
        for aud in ["another-project", "photobackup-tes", "photobackup-test ", "PHOTOBACKUP-TEST", ""] {
            let token = try h.token(.firebase, claims: ["aud": .string(aud)])
            expectRefused(
                h.verify(token, .firebase), .invalid, "audience is not this deployment's Firebase project", token: token
            )
        }
        let google = try h.token(.firebase, claims: ["aud": .string(h.idp.googleAudience)])
        expectRefused(h.verify(google, .firebase), .invalid, "audience is not", token: google)
        let none = try h.token(.firebase, drop: ["aud"])
        expectRefused(h.verify(none, .firebase), .invalid, "token has no audience", token: none)
        // Firebase's audience is the project id alone: a list is refused, even one holding it.
        for list: JSONValue in [["photobackup-test"], ["other", "photobackup-test"], []] {
            let token = try h.token(.firebase, claims: ["aud": list])
            expectRefused(h.verify(token, .firebase), .invalid, "audience is a list", token: token)
        }
        let number = try h.token(.firebase, claims: ["aud": 42])
        expectRefused(h.verify(number, .firebase), .invalid, "token has no audience", token: number)
    }

    // MARK: Algorithm and key

    @Test func onlyRS256IsAccepted() throws {
        let h = try Harness()
        for alg in ["RS384", "RS512", "PS256", "ES256", "HS256", "none", "rs256"] {
            let token = try h.token(.firebase, header: ["alg": .string(alg)])
            expectRefused(h.verify(token, .firebase), .invalid, "algorithm is not RS256", token: token)
        }
        let confused = try h.token(.firebase, sign: "hs256-public-key")
        expectRefused(h.verify(confused, .firebase), .invalid, "algorithm is not RS256", token: confused)
        let unsigned = try h.token(.firebase, sign: "none")
        expectRefused(h.verify(unsigned, .firebase), .invalid, "empty part", token: unsigned)
        let foreign = try h.token(.firebase, sign: "foreign")
        expectRefused(h.verify(foreign, .firebase), .invalid, "signature does not verify", token: foreign)
        let jku = try h.token(.firebase, header: ["jku": "http://127.0.0.1:1/evil"])
        expectRefused(h.verify(jku, .firebase), .invalid, "names its own key (jku)", token: jku)
        #expect(h.verify(try h.token(.firebase), .firebase).identity != nil)
    }

    @Test func weakKeyInFirebasesJWKSIsRefused() throws {
        let h = try Harness()
        try h.idp.addKey("firebase", bits: 1024, kid: "firebase-weak-1024")
        let token = try h.token(.firebase, kid: "firebase-weak-1024")
        expectRefused(h.verify(token, .firebase), .invalid, "smaller than 2048 bits", token: token)
    }

    // MARK: Off

    @Test func firebaseOffIsUnsupportedAndNamesWhatIsAccepted() throws {
        let h = try Harness(firebase: false)
        let token = try h.token(.firebase)
        expectRefused(
            h.verify(token, .firebase), .unsupportedProvider,
            "Firebase sign-in is not enabled for this deployment (it accepts: apple, google)", token: token)
        #expect(try h.idp.fetches().firebase == 0, "a disabled provider costs no fetch")
        let none = try Harness(apple: false, google: false, firebase: false)
        let apple = try none.token(.apple)
        expectRefused(none.verify(apple, .apple), .unsupportedProvider, "(it accepts: none)", token: apple)
    }
}

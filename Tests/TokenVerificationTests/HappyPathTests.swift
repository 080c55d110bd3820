import CryptoPrimitives
import StrictJSON
import Testing

@testable import TokenVerification

/// Genuine tokens in the claim shapes Apple and Google really send are accepted and mapped.
@Suite struct HappyPathTests {
    @Test func appleTokenWithHashedNonce() throws {
        let h = try Harness()
        let token = try h.token(
            .apple,
            template: [
                ("email", "x7abcd@privaterelay.appleid.com"), ("nonce", "raw-nonce-123"), ("private_email", true),
            ])
        let identity = try h.verify(token, .apple, nonce: "raw-nonce-123").get()
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .apple, subject: Harness.appleSub, email: "x7abcd@privaterelay.appleid.com",
                    emailVerified: true, isPrivateEmail: true, name: nil, realUserStatus: 2))
    }

    @Test func appleTokenWithoutNonceOrPrivateEmail() throws {
        let h = try Harness()
        let token = try h.token(.apple, template: [("email", "someone@example.com")], drop: ["real_user_status"])
        let identity = try h.verify(token, .apple).get()
        #expect(identity.email == "someone@example.com")
        #expect(identity.emailVerified == true)
        #expect(identity.isPrivateEmail == nil)
        #expect(identity.realUserStatus == nil)
        #expect(identity.name == nil)
    }

    @Test func appleStringAndBooleanFlags() throws {
        let h = try Harness()
        let strings = try h.token(.apple, claims: ["email_verified": "false", "is_private_email": "false"])
        let a = try h.verify(strings, .apple).get()
        #expect(a.emailVerified == false && a.isPrivateEmail == false)
        let bools = try h.token(.apple, claims: ["email_verified": true, "is_private_email": true])
        let b = try h.verify(bools, .apple).get()
        #expect(b.emailVerified == true && b.isPrivateEmail == true)
        let nulls = try h.token(.apple, claims: ["email_verified": nil, "email": nil], drop: ["is_private_email"])
        let c = try h.verify(nulls, .apple).get()
        #expect(c.emailVerified == nil && c.email == nil && c.isPrivateEmail == nil)
    }

    /// Contract v4 (an app moved to another team): Apple's `transfer_sub` is surfaced for sign-in's
    /// re-key; a token without it has none, and Google's never counts.
    @Test func appleTransferSubIsSurfaced() throws {
        let h = try Harness()
        let moved = try h.token(.apple, claims: ["transfer_sub": "000111.0a1b2c3d4e5f.2222"])
        #expect(try h.verify(moved, .apple).get().transferSub == "000111.0a1b2c3d4e5f.2222")
        #expect(try h.verify(try h.token(.apple), .apple).get().transferSub == nil)
        let nulled = try h.token(.apple, claims: ["transfer_sub": nil])
        #expect(try h.verify(nulled, .apple).get().transferSub == nil)
        let google = try h.token(.google, claims: ["transfer_sub": "000111.0a1b2c3d4e5f.2222"])
        #expect(try h.verify(google, .google).get().transferSub == nil)
    }

    @Test func appleTokenWithoutEmail() throws {
        let h = try Harness()
        // Apple omits email (and email_verified) when the user shared none.
        let token = try h.token(.apple, drop: ["email", "email_verified"])
        let identity = try h.verify(token, .apple).get()
        #expect(identity.email == nil && identity.emailVerified == nil)
    }

    @Test func googleTokenWithRawNonceAndName() throws {
        let h = try Harness()
        let token = try h.token(
            .google, template: [("name", "Ada Lovelace"), ("email", "ada@gmail.com"), ("nonce", "n-0123456789")])
        let identity = try h.verify(token, .google, nonce: "n-0123456789").get()
        #expect(
            identity
                == VerifiedIdentity(
                    provider: .google, subject: Harness.googleSub, email: "ada@gmail.com",
                    emailVerified: true, isPrivateEmail: nil, name: "Ada Lovelace", realUserStatus: nil))
    }

    @Test func googleAcceptsHashedNonceToo() throws {
        let h = try Harness()
        let token = try h.token(.google, claims: ["nonce": .string(SHA256.hexHash(Array("n-1".utf8)))])
        #expect(h.verify(token, .google, nonce: "n-1").identity != nil)
    }

    @Test func googleBothIssuerForms() throws {
        let h = try Harness()
        for iss in ["https://accounts.google.com", "accounts.google.com"] {
            let token = try h.token(.google, claims: ["iss": .string(iss)])
            #expect(h.verify(token, .google).identity?.subject == Harness.googleSub, "\(iss)")
        }
    }

    @Test func googleStringEmailVerified() throws {
        let h = try Harness()
        let token = try h.token(.google, claims: ["email_verified": "true"])
        #expect(h.verify(token, .google).identity?.emailVerified == true)
    }

    @Test func audienceArrayWithOneConfigured() throws {
        let h = try Harness(extraGoogleAudiences: ["1234-web.apps.googleusercontent.com"])
        let token = try h.token(
            .google,
            claims: [
                "aud": ["someone-else", .string(h.idp.googleAudience)], "azp": "1234-web.apps.googleusercontent.com",
            ])
        #expect(h.verify(token, .google).identity != nil)
    }

    @Test func tokenNonceIgnoredWhenRequestGivesNone() throws {
        let h = try Harness()
        let token = try h.token(.apple, template: [("nonce", "whatever")])
        #expect(h.verify(token, .apple, nonce: nil).identity != nil)
    }

    @Test func unknownClaimsAndHeaderParametersAreIgnored() throws {
        let h = try Harness()
        let token = try h.token(
            .google, claims: ["hd": "example.com", "locale": "en", "extra": ["nested": [1, 2, 3]]],
            header: ["typ": "JWT", "x-custom": 1])
        #expect(h.verify(token, .google).identity != nil)
    }

    @Test func sameVerifierServesManyTokensFromOneFetch() throws {
        let h = try Harness()
        for i in 0..<20 {
            let provider: IdentityProvider = i % 2 == 0 ? .apple : .google
            #expect(h.verify(try h.token(provider), provider).identity != nil)
        }
        let counts = try h.idp.fetches()
        #expect(counts.apple == 1 && counts.google == 1)
    }
}

import CryptoPrimitives
import PlatformSupport
import StrictJSON
import Testing

@testable import TokenVerification

/// The attack catalogue of issue 4, each its own test. Every forged token is made by the
/// independent Python implementation (the stand-in), or is a valid one of its tokens altered
/// here byte by byte; each must be refused with the right kind and a message that names the
/// problem without quoting the token.
@Suite struct AttackTests {
    // MARK: Algorithm and key confusion

    @Test func algNoneIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, sign: "none")
        #expect(token.hasSuffix("."))
        expectRefused(h.verify(token, .apple), .invalid, "ID token has an empty part", token: token)
        // The same header with a signature part present is refused for its algorithm.
        let withSig = token + "AAAA"
        expectRefused(h.verify(withSig, .apple), .invalid, "algorithm is not RS256", token: withSig)
        #expect(try h.idp.fetches().apple == 0, "an unsigned token must not cost a JWKS fetch")
    }

    @Test func hs256KeyedWithThePublicKeyIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.google, sign: "hs256-public-key")
        expectRefused(h.verify(token, .google), .invalid, "algorithm is not RS256", token: token)
    }

    @Test func otherAlgorithmsAreRefused() throws {
        let h = try Harness()
        for alg in ["RS384", "RS512", "PS256", "ES256", "rs256", "RS256 "] {
            let token = try h.token(.apple, header: ["alg": .string(alg)])
            expectRefused(h.verify(token, .apple), .invalid, "algorithm is not RS256", token: token)
        }
        let noAlg = try h.token(.apple, rawHeader: #"{"kid":"apple-test-1"}"#)
        expectRefused(h.verify(noAlg, .apple), .invalid, "no algorithm", token: noAlg)
    }

    @Test func unknownKidIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, header: ["kid": "no-such-key"])
        expectRefused(h.verify(token, .apple), .invalid, "key id not in Apple's JWKS", token: token)
        let missing = try h.token(.apple, rawHeader: #"{"alg":"RS256"}"#)
        expectRefused(h.verify(missing, .apple), .invalid, "no key id", token: missing)
        let notString = try h.token(.apple, rawHeader: #"{"alg":"RS256","kid":7}"#)
        expectRefused(h.verify(notString, .apple), .invalid, "key id is not", token: notString)
    }

    @Test func rightKidWrongKeyIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, sign: "foreign")
        expectRefused(h.verify(token, .apple), .invalid, "signature does not verify", token: token)
    }

    @Test func otherProvidersKeyIsRefused() throws {
        let h = try Harness()
        // A genuine Google token presented as Apple's: its kid is not in Apple's JWKS.
        let token = try h.token(.google)
        expectRefused(h.verify(token, .apple), .invalid, "key id not in Apple's JWKS", token: token)
    }

    @Test func rsa1024KeyIsRefused() throws {
        let h = try Harness()
        try h.idp.addKey("apple", bits: 1024, kid: "apple-weak-1024")
        let token = try h.token(.apple, kid: "apple-weak-1024")
        expectRefused(h.verify(token, .apple), .invalid, "smaller than 2048 bits", token: token)
        // The set's other key still works.
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
    }

    // MARK: Time

    @Test func expiredTokenIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, template: [("now", .int(h.clock.now - 7200)), ("lifetime", 600)])
        expectRefused(h.verify(token, .apple), .expired, "expired", token: token)
        // Just past exp but within the 60 s leeway: accepted; beyond it: expired.
        let inLeeway = try h.token(.google, template: [("now", .int(h.clock.now - 3630))])
        #expect(h.verify(inLeeway, .google).identity != nil)
        let beyond = try h.token(.google, template: [("now", .int(h.clock.now - 3662))])
        expectRefused(h.verify(beyond, .google), .expired, "expired", token: beyond)
    }

    @Test func iatInTheFutureIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, template: [("now", .int(h.clock.now + 300))])
        expectRefused(h.verify(token, .apple), .invalid, "issue time (iat) is in the future", token: token)
        let withinLeeway = try h.token(.apple, template: [("now", .int(h.clock.now + 50))])
        #expect(h.verify(withinLeeway, .apple).identity != nil)
    }

    @Test func expTooFarAheadIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.google, template: [("lifetime", .int(2 * 86400))])
        expectRefused(h.verify(token, .google), .invalid, "more than 24 hours ahead", token: token)
    }

    @Test func nbfInTheFutureIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.google, claims: ["nbf": .int(h.clock.now + 600)])
        expectRefused(h.verify(token, .google), .invalid, "not valid yet", token: token)
    }

    @Test func missingOrMalformedTimesAreRefused() throws {
        let h = try Harness()
        let noExp = try h.token(.apple, drop: ["exp"])
        expectRefused(h.verify(noExp, .apple), .invalid, "no expiry", token: noExp)
        let noIat = try h.token(.apple, drop: ["iat"])
        expectRefused(h.verify(noIat, .apple), .invalid, "no issue time", token: noIat)
        let textExp = try h.token(.apple, claims: ["exp": .string(String(h.clock.now + 600))])
        expectRefused(h.verify(textExp, .apple), .invalid, "not an integer time", token: textExp)
    }

    // MARK: Issuer, audience, authorized party

    @Test func wrongIssuerIsRefused() throws {
        let h = try Harness()
        for iss in [
            "https://appleid.apple.com/", "https://appleid.apple.com.evil.example", "http://appleid.apple.com",
            "appleid.apple.com", "https://accounts.google.com", "HTTPS://APPLEID.APPLE.COM",
        ] {
            let token = try h.token(.apple, claims: ["iss": .string(iss)])
            expectRefused(h.verify(token, .apple), .invalid, "issuer is not Apple's", token: token)
        }
        for iss in [
            "https://appleid.apple.com", "https://accounts.google.com/", "https://evil.example/accounts.google.com",
        ] {
            let token = try h.token(.google, claims: ["iss": .string(iss)])
            expectRefused(h.verify(token, .google), .invalid, "issuer is not Google's", token: token)
        }
        let noIss = try h.token(.google, drop: ["iss"])
        expectRefused(h.verify(noIss, .google), .invalid, "issuer is not Google's", token: noIss)
    }

    @Test func wrongAudienceIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, claims: ["aud": "com.example.other-app"])
        expectRefused(
            h.verify(token, .apple), .invalid, "audience is not one of this deployment's Apple audiences", token: token)
        let list = try h.token(.apple, claims: ["aud": ["com.example.other-app", "com.example.third"]])
        expectRefused(h.verify(list, .apple), .invalid, "audience", token: list)
        let empty = try h.token(.apple, claims: ["aud": []])
        expectRefused(h.verify(empty, .apple), .invalid, "audience", token: empty)
        let none = try h.token(.apple, drop: ["aud"])
        expectRefused(h.verify(none, .apple), .invalid, "no audience", token: none)
        let prefix = try h.token(.apple, claims: ["aud": .string(String(h.idp.appleAudience.dropLast()))])
        expectRefused(h.verify(prefix, .apple), .invalid, "audience", token: prefix)
    }

    @Test func wrongAzpIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.google, claims: ["azp": "99999-attacker.apps.googleusercontent.com"])
        expectRefused(h.verify(token, .google), .invalid, "authorized party (azp)", token: token)
        let nonString = try h.token(.google, claims: ["azp": 5])
        expectRefused(h.verify(nonString, .google), .invalid, "authorized party (azp)", token: nonString)
        // Absent azp is fine (it is optional).
        #expect(h.verify(try h.token(.google, drop: ["azp"]), .google).identity != nil)
    }

    // MARK: Subject and nonce

    @Test func subjectWithSlashOrDotsIsRefused() throws {
        let h = try Harness()
        for sub in [
            "../../users/victim", "a/b", "..", ".", "", "abc\u{0}", "tr\u{e4}ger", "a b",
            String(repeating: "a", count: 256), "a%2Fb",
        ] {
            let token = try h.token(.apple, claims: ["sub": .string(sub)])
            expectRefused(h.verify(token, .apple), .invalid, "subject is not a valid provider user id", token: token)
        }
        let numeric = try h.token(.google, claims: ["sub": 1234])
        expectRefused(h.verify(numeric, .google), .invalid, "no subject", token: numeric)
        // The pattern's edges are accepted.
        for sub in ["...", "a", "A.b_c-9", String(repeating: "z", count: 255)] {
            #expect(h.verify(try h.token(.google, claims: ["sub": .string(sub)]), .google).identity?.subject == sub)
        }
    }

    @Test func nonceMismatchIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, template: [("nonce", "raw-nonce-from-the-app")])
        expectRefused(h.verify(token, .apple, nonce: "another-nonce"), .invalid, "nonce does not match", token: token)
        // Upper-case hex is not the convention.
        let hashed = SHA256.hexHash(Array("raw-nonce-from-the-app".utf8))
        let upper = try h.token(.apple, claims: ["nonce": .string(hashed.uppercased())])
        expectRefused(
            h.verify(upper, .apple, nonce: "raw-nonce-from-the-app"), .invalid, "nonce does not match", token: upper)
        let missing = try h.token(.google)
        expectRefused(h.verify(missing, .google, nonce: "n-123"), .invalid, "token has no nonce", token: missing)
    }

    /// Issue 32 (Apple's web flow): an ID token minted for the web flow's Services ID went
    /// through a browser and a redirect; without the request's nonce anyone who saw it could sign
    /// in with it. It counts only with its nonce; the app's own (bundle id) tokens keep the
    /// optional nonce.
    @Test func aServicesIDTokenCountsOnlyWithItsNonce() throws {
        let web = "com.example.photos.android"
        let h = try Harness {
            $0.apple.audiences.append(web)
            $0.apple.nonceRequired = [web]
        }
        let hashed = SHA256.hexHash(Array("raw-web-nonce".utf8))
        let withNonce = try h.token(.apple, claims: ["aud": .string(web), "nonce": .string(hashed)])
        expectRefused(h.verify(withNonce, .apple), .invalid, "needs the request's nonce", token: withNonce)
        #expect(h.verify(withNonce, .apple, nonce: "raw-web-nonce").identity?.subject == Harness.appleSub)
        let bare = try h.token(.apple, claims: ["aud": .string(web)])
        expectRefused(h.verify(bare, .apple), .invalid, "needs the request's nonce", token: bare)
        expectRefused(h.verify(bare, .apple, nonce: "raw-web-nonce"), .invalid, "token has no nonce", token: bare)
        let listed = try h.token(
            .apple, claims: ["aud": ["com.example.other", .string(web)], "nonce": .string(hashed)])
        expectRefused(h.verify(listed, .apple), .invalid, "needs the request's nonce", token: listed)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil, "the app's own audience: nonce optional")
    }

    /// `APPLE_WEB_AUDIENCES` is accepted without repeating it in `APPLE_AUDIENCES`.
    @Test func theWebAudiencesAreAcceptedAndNeedTheNonce() throws {
        let config = try VerifierConfiguration.from(environment: {
            ["APPLE_AUDIENCES": "com.example.photos", "APPLE_WEB_AUDIENCES": "com.example.web, com.example.photos"][$0]
        })
        #expect(config.apple.audiences == ["com.example.photos", "com.example.web"])
        #expect(config.apple.nonceRequired == ["com.example.web", "com.example.photos"])
    }

    // MARK: Header parameters that point at keys

    @Test func jkuHeaderIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, header: ["jku": "http://127.0.0.1:1/evil-keys"])
        expectRefused(h.verify(token, .apple), .invalid, "names its own key (jku)", token: token)
    }

    @Test func jwkHeaderIsRefused() throws {
        let h = try Harness()
        let token = try h.token(
            .google, header: ["jwk": ["kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "google-test-1"]])
        expectRefused(h.verify(token, .google), .invalid, "names its own key (jwk)", token: token)
    }

    @Test func x5uAndX5cHeadersAreRefused() throws {
        let h = try Harness()
        let x5u = try h.token(.apple, header: ["x5u": "https://evil.example/cert.pem"])
        expectRefused(h.verify(x5u, .apple), .invalid, "names its own key (x5u)", token: x5u)
        let x5c = try h.token(.apple, header: ["x5c": ["MIIB"]])
        expectRefused(h.verify(x5c, .apple), .invalid, "names its own key (x5c)", token: x5c)
    }

    @Test func critHeaderIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple, header: ["crit": ["exp"], "exp": 1])
        expectRefused(h.verify(token, .apple), .invalid, "crit", token: token)
        let b64 = try h.token(.apple, header: ["crit": ["b64"], "b64": false])
        expectRefused(h.verify(b64, .apple), .invalid, "crit", token: b64)
    }

    // MARK: Encoding and integrity

    @Test func tamperedPayloadIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple)
        var parts = TokenSurgery.parts(token)
        let payload = try #require(Base64.urlDecode(parts[1]))
        var claims = try #require(try JSONParser.parse(payload).objectValue)
        claims["sub"] = "001999.victim.0001"
        parts[1] = Base64.urlEncode(JSONValue.object(claims).serialized())
        let forged = TokenSurgery.join(parts)
        expectRefused(h.verify(forged, .apple), .invalid, "signature does not verify", token: forged)
        // A single flipped bit anywhere in the signature, header or payload is refused too.
        var flipped = Array(token.utf8)
        let dot = try #require(flipped.firstIndex(of: UInt8(ascii: ".")))
        flipped[dot + 5] = flipped[dot + 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let flippedToken = String(decoding: flipped, as: UTF8.self)
        #expect(h.verify(flippedToken, .apple).error?.kind == .invalid)
        // The header cannot be swapped for another valid header either (it is signed).
        let otherHeader = TokenSurgery.parts(try h.token(.apple, header: ["typ": "JWT"]))[0]
        let swapped = TokenSurgery.join([otherHeader, parts[1], TokenSurgery.parts(token)[2]])
        expectRefused(h.verify(swapped, .apple), .invalid, "signature does not verify", token: swapped)
    }

    @Test func truncatedTokenIsRefused() throws {
        let h = try Harness()
        let token = try h.token(.google)
        let parts = TokenSurgery.parts(token)
        let twoParts = TokenSurgery.join(Array(parts.prefix(2)))
        expectRefused(h.verify(twoParts, .google), .invalid, "three dot-separated parts", token: twoParts)
        let emptySig = twoParts + "."
        expectRefused(h.verify(emptySig, .google), .invalid, "empty part", token: emptySig)
        // Four characters (three bytes) fewer: 253 bytes of signature, not the modulus length.
        let shortSig = TokenSurgery.join([parts[0], parts[1], String(parts[2].dropFirst(4))])
        expectRefused(h.verify(shortSig, .google), .invalid, "signature does not verify", token: shortSig)
        let cut = String(token.dropLast(4))
        #expect(h.verify(cut, .google).error?.kind == .invalid)
        // One character shorter: not a valid base64url length or not canonical.
        let oneShort = String(token.dropLast(1))
        #expect(h.verify(oneShort, .google).error?.kind == .invalid)
        let headerOnly = parts[0]
        expectRefused(h.verify(headerOnly, .google), .invalid, "three dot-separated parts", token: headerOnly)
        for junk in ["", ".", "..", "...", "a.b.c.d", token + ".", "." + token] {
            #expect(h.verify(junk, .google).error?.kind == .invalid, "\(junk.prefix(10))")
        }
    }

    @Test func paddedBase64IsRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple)
        var parts = TokenSurgery.parts(token)
        #expect(parts[2].count % 4 == 2, "a 256-byte signature encodes to 342 characters")
        parts[2] += "=="
        let padded = TokenSurgery.join(parts)
        expectRefused(
            h.verify(padded, .apple), .invalid, "signature is not canonical unpadded base64url", token: padded)
        // Padding the header (or adding '=' where none is due) is refused as well.
        var headerPadded = TokenSurgery.parts(token)
        headerPadded[0] += headerPadded[0].count % 4 == 2 ? "==" : headerPadded[0].count % 4 == 3 ? "=" : "===="
        let hp = TokenSurgery.join(headerPadded)
        expectRefused(h.verify(hp, .apple), .invalid, "header is not canonical unpadded base64url", token: hp)
    }

    @Test func standardAlphabetBase64IsRefused() throws {
        let h = try Harness()
        // Mint until the signature holds a '-' or '_' (nearly always on the first try; bounded).
        var token = try h.token(.apple)
        for _ in 0..<20 where !TokenSurgery.parts(token)[2].contains(where: { $0 == "-" || $0 == "_" }) {
            token = try h.token(.apple)
        }
        var parts = TokenSurgery.parts(token)
        parts[2] = String(parts[2].map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let standard = TokenSurgery.join(parts)
        #expect(standard != token)
        expectRefused(
            h.verify(standard, .apple), .invalid, "signature is not canonical unpadded base64url", token: standard)
        // Whitespace inside a part is refused too.
        var spaced = TokenSurgery.parts(token)
        spaced[1].insert(" ", at: spaced[1].index(spaced[1].startIndex, offsetBy: 4))
        let sp = TokenSurgery.join(spaced)
        #expect(h.verify(sp, .apple).error?.kind == .invalid)
    }

    @Test func nonCanonicalTrailingBitsAreRefused() throws {
        let h = try Harness()
        let token = try h.token(.apple)
        var parts = TokenSurgery.parts(token)
        // 256 bytes → 342 characters; the last carries 2 data bits and 4 that must be zero.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(parts[2].last)
        let value = try #require(alphabet.firstIndex(of: last))
        #expect(value & 0x0f == 0)
        parts[2] = String(parts[2].dropLast()) + String(alphabet[value | 0x01])
        let sloppy = TokenSurgery.join(parts)
        expectRefused(
            h.verify(sloppy, .apple), .invalid, "signature is not canonical unpadded base64url", token: sloppy)
    }

    @Test func duplicateClaimsAreRefused() throws {
        let h = try Harness()
        let now = h.clock.now
        let raw =
            #"{"iss":"https://appleid.apple.com","aud":"\#(h.idp.appleAudience)","exp":\#(now + 600),"iat":\#(now),"#
            + #""sub":"001234.honest.0001","email_verified":"true","sub":"001999.victim.0001"}"#
        let token = try h.token(.apple, rawClaims: raw)
        expectRefused(h.verify(token, .apple), .invalid, "duplicate claim", token: token)
        let rawHeader = #"{"alg":"none","kid":"apple-test-1","alg":"RS256"}"#
        let dupHeader = try h.token(.apple, rawHeader: rawHeader)
        expectRefused(h.verify(dupHeader, .apple), .invalid, "duplicate parameter", token: dupHeader)
    }

    @Test func payloadThatIsNotAnObjectIsRefused() throws {
        let h = try Harness()
        for raw in ["[]", "\"claims\"", "{\"sub\":1,}", "{}x"] {
            let token = try h.token(.apple, rawClaims: raw)
            #expect(h.verify(token, .apple).error?.kind == .invalid, "\(raw)")
        }
    }

    @Test func oversizedTokenIsRefusedBeforeParsing() throws {
        let h = try Harness()
        let token = try h.token(.google, claims: ["padding": .string(String(repeating: "x", count: 16 * 1024))])
        #expect(token.utf8.count > 16 * 1024)
        expectRefused(h.verify(token, .google), .invalid, "larger than 16 KiB", token: token)
        let junk = String(repeating: "A", count: 16 * 1024 + 1)
        expectRefused(h.verify(junk, .google), .invalid, "larger than 16 KiB", token: junk)
        #expect(try h.idp.fetches().google == 0, "no key fetch for a token refused on size")
    }

    @Test func malformedProfileClaimsAreRefused() throws {
        let h = try Harness()
        for (name, value) in [
            ("email_verified", JSONValue.string("yes")), ("email_verified", .int(1)),
            ("is_private_email", .string("TRUE")),
            ("email", .bool(true)), ("real_user_status", .string("2")), ("name", .array([])),
            // transfer_sub names an S3 key: the sub rule, or the token is refused.
            ("transfer_sub", .int(7)), ("transfer_sub", .string("../x")), ("transfer_sub", .string("")),
            ("transfer_sub", .string("a/b")),
        ] {
            let token = try h.token(.apple, claims: .object(JSONObject([(name, value)])))
            expectRefused(
                h.verify(token, .apple), .invalid, name == "transfer_sub" ? "transfer" : "claim \(name)", token: token)
        }
    }

    @Test func disabledProviderIsUnsupported() throws {
        let h = try Harness(google: false)
        let token = try h.token(.google)
        expectRefused(h.verify(token, .google), .unsupportedProvider, "Google sign-in is not enabled", token: token)
        #expect(try h.idp.fetches().google == 0)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
    }
}

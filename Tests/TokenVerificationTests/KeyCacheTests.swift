import CurlHTTP
import Foundation
import PlatformSupport
import Testing

@testable import TokenVerification

/// The JWKS cache against the loopback JWKS server: fetch counts, max-age, rotation, outages.
/// Time moves on the verifier's clock (`Harness.clock`); tokens are minted at that time.
@Suite struct KeyCacheTests {
    @Test func firstVerificationFetchesThenCaches() throws {
        let h = try Harness()
        for _ in 0..<5 { #expect(h.verify(try h.token(.apple), .apple).identity != nil) }
        let counts = try h.idp.fetches()
        #expect(counts.apple == 1)
        #expect(counts.google == 0)
        #expect(h.verifier.successfulFetchCount(.apple) == 1)
        #expect(h.verifier.cachedKeyIDs(.apple) == ["apple-test-1"])
    }

    @Test func prefetchFetchesEveryEnabledProviderInOneRound() throws {
        let h = try Harness()
        let rounds = h.http.roundCount
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        #expect(h.http.roundCount == rounds + 1, "the three JWKS fetched concurrently")
        var counts = try h.idp.fetches()
        #expect(counts.apple == 1 && counts.google == 1 && counts.firebase == 1)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(h.verify(try h.token(.google), .google).identity != nil)
        #expect(h.verify(try h.token(.firebase), .firebase).identity != nil)
        // A second prefetch with fresh caches does nothing.
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        counts = try h.idp.fetches()
        #expect(counts.apple == 1 && counts.google == 1 && counts.firebase == 1)
    }

    @Test func prefetchSkipsDisabledProvider() throws {
        let h = try Harness(apple: false)
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        let counts = try h.idp.fetches()
        #expect(counts.apple == 0 && counts.google == 1 && counts.firebase == 1)
    }

    @Test func prefetchSkipsFirebaseWhenItIsOff() throws {
        let h = try Harness(firebase: false)
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        let counts = try h.idp.fetches()
        #expect(counts.apple == 1 && counts.google == 1 && counts.firebase == 0)
    }

    /// Firebase's keys live in their own cache under the same rules: a rotation there re-fetches
    /// Firebase's JWKS once and nobody else's.
    @Test func firebaseKeyRotationRefetchesOnlyFirebasesKeys() throws {
        let h = try Harness()
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        h.clock.advance(61)
        let kid = try h.idp.rotate("firebase")
        let token = try h.token(.firebase)
        #expect(h.verify(token, .firebase).identity?.subject == Harness.firebaseSub)
        #expect(h.verifier.cachedKeyIDs(.firebase) == ["firebase-test-1", kid].sorted())
        let counts = try h.idp.fetches()
        #expect(counts.apple == 1 && counts.google == 1 && counts.firebase == 2)
    }

    @Test func maxAgeIsHonoured() throws {
        let h = try Harness()
        try h.idp.setMaxAge(120)
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        h.clock.advance(100)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 1)
        h.clock.advance(21)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 2, "expired after max-age: re-fetched")
    }

    @Test func missingMaxAgeMeansOneHour() throws {
        let h = try Harness()
        try h.idp.setMaxAge(nil)
        #expect(h.verify(try h.token(.google), .google).identity != nil)
        h.clock.advance(3590)
        #expect(h.verify(try h.token(.google), .google).identity != nil)
        #expect(try h.idp.fetches().google == 1)
        h.clock.advance(20)
        #expect(h.verify(try h.token(.google), .google).identity != nil)
        #expect(try h.idp.fetches().google == 2)
    }

    @Test func maxAgeIsCappedAtOneDay() throws {
        let h = try Harness()
        try h.idp.setMaxAge(30 * 86400)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        h.clock.advance(86400 - 10)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 1)
        h.clock.advance(20)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 2)
    }

    @Test func zeroMaxAgeStillCachesAMinute() throws {
        let h = try Harness()
        try h.idp.setMaxAge(0)
        for _ in 0..<3 { #expect(h.verify(try h.token(.apple), .apple).identity != nil) }
        #expect(try h.idp.fetches().apple == 1)
        h.clock.advance(61)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 2)
    }

    @Test func keyRotationIsPickedUpWithOneRefetch() throws {
        let h = try Harness()
        let old = try h.token(.apple)
        #expect(h.verify(old, .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 1)

        let newKid = try h.idp.rotate("apple")
        let rotated = try h.token(.apple)
        #expect(rotated != old)
        // The set was fetched moments ago: an unknown kid does not trigger a fetch within a minute.
        expectRefused(h.verify(rotated, .apple), .invalid, "key id not in Apple's JWKS", token: rotated)
        #expect(try h.idp.fetches().apple == 1)

        h.clock.advance(61)
        let fresh = try h.token(.apple)
        #expect(h.verify(fresh, .apple).identity != nil, "unknown kid → one re-fetch → new key found")
        #expect(try h.idp.fetches().apple == 2)
        #expect(h.verifier.cachedKeyIDs(.apple).contains(newKid))
        // Tokens signed with the previous key (still published) keep working, without fetches.
        #expect(h.verify(try h.token(.apple, kid: "apple-test-1"), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 2)
    }

    @Test func unknownKidRefetchIsRateLimited() throws {
        let h = try Harness()
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        h.clock.advance(61)
        let forged = try h.token(.apple, header: ["kid": "attacker-kid"])
        expectRefused(h.verify(forged, .apple), .invalid, "key id not in Apple's JWKS", token: forged)
        #expect(try h.idp.fetches().apple == 2, "one re-fetch for the unknown kid")
        for i in 0..<10 {
            let t = try h.token(.apple, header: ["kid": .string("attacker-kid-\(i)")])
            expectRefused(h.verify(t, .apple), .invalid, "key id not in Apple's JWKS", token: t)
        }
        #expect(try h.idp.fetches().apple == 2, "no further fetch within the minute")
        h.clock.advance(61)
        _ = h.verify(forged, .apple)
        #expect(try h.idp.fetches().apple == 3, "at most one more a minute later")
    }

    @Test func outageWithoutCacheIsUpstreamUnavailable() throws {
        let h = try Harness()
        try h.idp.setFailing(true)
        let token = try h.token(.apple)
        expectRefused(h.verify(token, .apple), .keysUnavailable, "Apple's signing keys are unavailable", token: token)
        #expect(try h.idp.fetches().apple == 2, "one attempt and one retry on 503")
        #expect(h.verifier.lastFetchFailure(.apple) == "HTTP 503")
        // Without any keys, each verification tries again (nothing else could answer it).
        expectRefused(h.verify(token, .apple), .keysUnavailable, "unavailable", token: token)
        #expect(try h.idp.fetches().apple == 4)
        // Recovery: the next verification fetches and succeeds.
        try h.idp.setFailing(false)
        #expect(h.verify(token, .apple).identity != nil)
        #expect(h.verifier.lastFetchFailure(.apple) == nil)
    }

    @Test func prefetchFailureIsRememberedNotThrown() throws {
        let h = try Harness()
        try h.idp.setFailing(true)
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        #expect(h.verifier.lastFetchFailure(.apple) == "HTTP 503")
        #expect(h.verifier.lastFetchFailure(.google) == "HTTP 503")
        try h.idp.setFailing(false)
        #expect(h.verify(try h.token(.google), .google).identity != nil)
    }

    @Test func outageWithFreshCacheKeepsVerifying() throws {
        let h = try Harness()
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        try h.idp.setFailing(true)
        for _ in 0..<3 { #expect(h.verify(try h.token(.google), .google).identity != nil) }
        #expect(try h.idp.fetches().google == 1, "a fresh cache needs no fetch")
        // An unknown kid whose re-fetch fails cannot be judged: unavailable, not invalid.
        h.clock.advance(61)
        let unknown = try h.token(.google, header: ["kid": "google-new-key"])
        expectRefused(h.verify(unknown, .google), .keysUnavailable, "unavailable", token: unknown)
        #expect(try h.idp.fetches().google == 3, "one re-fetch (with its retry)")
        // Within the minute: no new attempt, and still unavailable (the set was never confirmed).
        expectRefused(h.verify(unknown, .google), .keysUnavailable, "the last refresh failed", token: unknown)
        #expect(try h.idp.fetches().google == 3)
        #expect(h.verify(try h.token(.google), .google).identity != nil, "known keys still answer")
        // Once the server is back and a minute has passed, the unknown kid is judged for real.
        try h.idp.setFailing(false)
        h.clock.advance(61)
        expectRefused(h.verify(unknown, .google), .invalid, "key id not in Google's JWKS", token: unknown)
    }

    @Test func outageWithExpiredCacheServesStaleKeysForABoundedTime() throws {
        let h = try Harness()
        try h.idp.setMaxAge(120)
        h.verifier.prefetchKeys(deadline: .after(milliseconds: 5_000))
        try h.idp.setFailing(true)
        h.clock.advance(200)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil, "stale keys serve during the outage")
        #expect(try h.idp.fetches().apple == 3, "one refresh attempt (with its retry)")
        h.clock.advance(10)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 3, "no new attempt within 30 s of a failure")
        h.clock.advance(30)
        #expect(h.verify(try h.token(.apple), .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 5, "retried after 30 s, still failing, still served")
        // Beyond expiry + 6 h of grace the stale keys are no longer trusted.
        h.clock.advance(KeyCachePolicy.staleGrace)
        let late = try h.token(.apple)
        expectRefused(h.verify(late, .apple), .keysUnavailable, "unavailable", token: late)
        try h.idp.setFailing(false)
        #expect(h.verify(late, .apple).identity != nil)
    }

    @Test func unreachableJWKSIsUpstreamUnavailable() throws {
        let idp = try StandIn()
        defer { idp.stop() }
        // A loopback port nobody listens on (the stand-in's port + nothing: port 1 is privileged and closed).
        let config = VerifierConfiguration(
            apple: ProviderSettings(audiences: [idp.appleAudience], jwksURL: "http://127.0.0.1:1/apple/keys"),
            google: ProviderSettings(audiences: [], jwksURL: "http://127.0.0.1:1/google/certs"))
        let verifier = TokenVerifier(configuration: config, http: try HTTPClient())
        let token = try idp.mint("apple")
        #expect(outcome(verifier, token).error?.kind == .keysUnavailable)
        #expect(verifier.lastFetchFailure(.apple) == "transfer failed (connection)")
    }

    @Test func notFoundJWKSIsUpstreamUnavailableWithoutRetry() throws {
        let idp = try StandIn()
        defer { idp.stop() }
        let base = try #require(idp.environment["APPLE_JWKS_URL"]).replacingOccurrences(
            of: "/apple/keys", with: "/nothing-here")
        let config = VerifierConfiguration(
            apple: ProviderSettings(audiences: [idp.appleAudience], jwksURL: base),
            google: ProviderSettings(audiences: [], jwksURL: base))
        let verifier = TokenVerifier(configuration: config, http: try HTTPClient())
        let token = try idp.mint("apple")
        #expect(outcome(verifier, token).error?.kind == .keysUnavailable)
        #expect(verifier.lastFetchFailure(.apple) == "HTTP 404")
    }

    @Test func nearDeadlineDoesNotStartAFetch() throws {
        let h = try Harness()
        let token = try h.token(.apple)
        expectRefused(
            h.verify(token, .apple, deadline: .after(milliseconds: 20)), .keysUnavailable, "unavailable", token: token)
        #expect(try h.idp.fetches().apple == 0)
        #expect(h.verifier.lastFetchFailure(.apple) == "no time left before the deadline")
        // An attempt that never started does not count against the re-fetch rate limit.
        #expect(h.verify(token, .apple).identity != nil)
        #expect(try h.idp.fetches().apple == 1)
    }
}

private func outcome(_ verifier: TokenVerifier, _ token: String) -> Result<VerifiedIdentity, TokenError> {
    do {
        return .success(try verifier.verify(token, provider: .apple, nonce: nil, deadline: .after(milliseconds: 5_000)))
    } catch { return .failure(error) }
}

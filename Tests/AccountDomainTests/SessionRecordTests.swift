import Testing
@testable import AccountDomain

@Suite struct SessionRecordTests {
    let t0 = RefreshToken.issue(serviceUserID: "6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b", sessionID: RefreshToken.newSessionID())

    @Test func tokenRoundTripsAndHidesNothingButItsParts() {
        let parsed = RefreshToken.parse(t0.value)
        #expect(parsed == t0)
        #expect(t0.value.hasPrefix("rt1_") && t0.value.count == 90)
        #expect(RefreshToken.parse(t0.value + "A") == nil)
        #expect(RefreshToken.parse("rt1_" + String(repeating: "A", count: 85) + "=") == nil)
        #expect(RefreshToken.parse("rt2_" + t0.value.dropFirst(4)) == nil)
        #expect(t0.hash.count == 64 && !t0.hash.contains(t0.value))
    }

    @Test func tokensCarry256RandomBits() {
        let a = RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID)
        let b = RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID)
        #expect(a.value != b.value)
    }

    @Test func rotationGraceSupersededAndReuse() {
        let now: Int64 = 1_800_000_000_000
        var r = SessionRecord.new(token: t0, provider: .apple, nowMs: now, ttlSeconds: 3600)
        #expect(r.decide(tokenHash: t0.hash, nowMs: now, graceSeconds: 30) == .rotate)
        let t1 = RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID)
        r = r.rotated(by: .rotate, newToken: t1, nowMs: now)
        #expect(r.decide(tokenHash: t1.hash, nowMs: now + 1, graceSeconds: 30) == .rotate)
        #expect(r.decide(tokenHash: t0.hash, nowMs: now + 29_000, graceSeconds: 30) == .graceRotate)
        #expect(r.decide(tokenHash: t0.hash, nowMs: now + 31_000, graceSeconds: 30) == .reuse)
        let t2 = RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID)
        let graced = r.rotated(by: .graceRotate, newToken: t2, nowMs: now + 1000)
        #expect(graced.decide(tokenHash: t2.hash, nowMs: now + 2000, graceSeconds: 30) == .rotate)
        #expect(graced.decide(tokenHash: t1.hash, nowMs: now + 2000, graceSeconds: 30) == .superseded)
        #expect(graced.decide(tokenHash: t0.hash, nowMs: now + 2000, graceSeconds: 30) == .graceRotate)
        // two rotations old
        let t3 = RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID)
        let twice = graced.rotated(by: .rotate, newToken: t3, nowMs: now + 3000)
        #expect(twice.decide(tokenHash: t0.hash, nowMs: now + 3001, graceSeconds: 30) == .reuse)
        #expect(twice.decide(tokenHash: "00", nowMs: now + 3001, graceSeconds: 30) == .reuse)
    }

    @Test func expiryIsAbsoluteAndRevocationSticks() {
        let now: Int64 = 1_800_000_000_000
        let r = SessionRecord.new(token: t0, provider: .google, nowMs: now, ttlSeconds: 60)
        let t1 = RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID)
        let rotated = r.rotated(by: .rotate, newToken: t1, nowMs: now + 50_000)
        #expect(rotated.expiresAtMs == r.expiresAtMs)
        #expect(rotated.decide(tokenHash: t1.hash, nowMs: now + 60_000, graceSeconds: 30) == .expired)
        #expect(r.revoked(reason: "x", nowMs: now).decide(tokenHash: t0.hash, nowMs: now, graceSeconds: 30) == .revoked)
    }

    @Test func recordJSONRoundTrips() throws {
        let now: Int64 = 1_800_000_000_123
        let r = SessionRecord.new(token: t0, provider: .apple, nowMs: now, ttlSeconds: 3600)
            .rotated(by: .rotate, newToken: RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID), nowMs: now + 5)
        #expect(SessionRecord(json: r.json) == r)
    }

    @Test func supersededListIsBounded() {
        var r = SessionRecord.new(token: t0, provider: .apple, nowMs: 0, ttlSeconds: 3600)
        r = r.rotated(by: .rotate, newToken: RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID), nowMs: 0)
        for _ in 0..<40 { r = r.rotated(by: .graceRotate, newToken: RefreshToken.issue(serviceUserID: t0.serviceUserID, sessionID: t0.sessionID), nowMs: 0) }
        #expect(r.superseded.count == SessionRecord.maxSuperseded)
    }
}

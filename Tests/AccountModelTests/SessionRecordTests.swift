import AccountTestSupport
import StrictJSON
import Testing

@Suite struct SessionRecordTests {
    let uuid = "6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b"
    let sid = "0123456789abcdef0123456789abcdef"
    let identity = SessionIdentity(
        provider: .apple, subject: "001234.abc.0001", linkID: "ffeeddccbbaa99887766554433221100")
    let now: Int64 = 1_800_000_000_000

    func token() -> RefreshToken { RefreshToken.issue(serviceUserID: uuid, sessionID: sid) }

    func record(_ t: RefreshToken, ttl: Int64 = 3600) -> SessionRecord {
        SessionRecord.new(token: t, identity: identity, device: "iPhone", nowMs: now, ttlSeconds: ttl)
    }

    @Test func tokenRoundTripsAndHidesNothingButItsParts() {
        let t0 = token()
        #expect(RefreshToken.parse(t0.value) == t0)
        #expect(t0.value.hasPrefix("rt1_") && t0.value.count == 90)
        #expect(RefreshToken.parse(t0.value + "A") == nil)
        #expect(RefreshToken.parse("rt1_" + String(repeating: "A", count: 85) + "=") == nil)
        #expect(RefreshToken.parse("rt2_" + t0.value.dropFirst(4)) == nil)
        #expect(t0.hash.count == 64 && !t0.hash.contains(t0.value))
        #expect(token().value != token().value, "256 random bits each")
    }

    /// Found by fuzzing (Tests/fuzz/documents/regressions): a `previous` entry without a hash was
    /// read with its `rotatedAt`, which the next write dropped; now it is no previous token at all.
    @Test func aPreviousEntryWithoutAHashIsNone() throws {
        var json = record(token()).json.objectValue!
        json["previous"] = ["rotatedAt": "2026-01-03T00:00:00.000Z"]
        let read = try #require(SessionRecord(json: .object(json)))
        #expect(read.previousHash == nil && read.previousRotatedAtMs == nil)
        #expect(SessionRecord(json: try JSONParser.parse(read.json.serialized())) == read)
    }

    /// Defect 1: a token with a real session id but a secret the session never issued.
    @Test func aTokenTheSessionNeverIssuedIsUnknownWhateverTheState() {
        let t0 = token(), forged = token()
        let r = record(t0)
        #expect(r.classify(tokenHash: forged.hash, nowMs: now, graceSeconds: 30) == .unknown)
        #expect(
            r.revoked(reason: "x", nowMs: now).classify(tokenHash: forged.hash, nowMs: now, graceSeconds: 30)
                == .unknown)
        #expect(
            r.classify(tokenHash: forged.hash, nowMs: now + 7_200_000, graceSeconds: 30) == .unknown, "expired session")
    }

    @Test func rotationGraceAndReuse() {
        let t0 = token(), t1 = token()
        let r = record(t0).rotated(from: .current, newToken: t1, nowMs: now).presented(nowMs: now + 1)
        #expect(r.classify(tokenHash: t1.hash, nowMs: now + 1, graceSeconds: 30) == .current)
        #expect(r.classify(tokenHash: t0.hash, nowMs: now + 30_000, graceSeconds: 30) == .justRotated)
        #expect(r.classify(tokenHash: t0.hash, nowMs: now + 30_001, graceSeconds: 30) == .reused)
        #expect(r.classify(tokenHash: t0.hash, nowMs: now + 1, graceSeconds: 0) == .reused, "grace 0: no window")
    }

    /// v5, "A phone's life never ends a session": until its successor is presented, the token
    /// just rotated out is a lost answer's retry however late it comes (here ten hours); each such
    /// retry supersedes the unpresented successor, whose own grace counts from then. Fails before
    /// v5 (the late retry was reuse).
    @Test func aLateRetryIsAnsweredWhileTheSuccessorIsUnpresented() {
        let t0 = token(), t1 = token(), t2 = token()
        let hours: Int64 = 3_600_000
        let r = record(t0, ttl: 86_400).rotated(from: .current, newToken: t1, nowMs: now)
        #expect(r.needsPresentationRecorded)
        #expect(r.classify(tokenHash: t0.hash, nowMs: now + 10 * hours, graceSeconds: 30) == .justRotated)
        #expect(r.classify(tokenHash: t0.hash, nowMs: now + 10 * hours, graceSeconds: 0) == .justRotated)
        let retried = r.rotated(from: .justRotated, newToken: t2, nowMs: now + 10 * hours)
        #expect(retried.supersededAtMs == [now + 10 * hours] && retried.previousRotatedAtMs == now)
        #expect(
            retried.classify(tokenHash: t1.hash, nowMs: now + 10 * hours + 30_000, graceSeconds: 30)
                == .supersededInGrace)
        #expect(retried.classify(tokenHash: t1.hash, nowMs: now + 10 * hours + 30_001, graceSeconds: 30) == .reused)
        #expect(retried.classify(tokenHash: t0.hash, nowMs: now + 20 * hours, graceSeconds: 30) == .justRotated)
        // Once the successor is presented (to list, say), the old token after the grace is reuse.
        let presented = retried.presented(nowMs: now + 20 * hours)
        #expect(!presented.needsPresentationRecorded)
        #expect(presented.classify(tokenHash: t0.hash, nowMs: now + 20 * hours, graceSeconds: 30) == .reused)
        #expect(presented.classify(tokenHash: t2.hash, nowMs: now + 20 * hours, graceSeconds: 30) == .current)
        // A refresh with the successor rotates it: the old token is an older one now.
        let next = retried.rotated(from: .current, newToken: token(), nowMs: now + 20 * hours)
        #expect(next.classify(tokenHash: t0.hash, nowMs: now + 20 * hours, graceSeconds: 30) == .reused)
        #expect(next.classify(tokenHash: t2.hash, nowMs: now + 21 * hours, graceSeconds: 30) == .justRotated)
    }

    /// Defect 6: a superseded token is harmless only inside the grace (v5: counted from when it
    /// was superseded), and only until the session rotates normally again.
    @Test func supersededTokensAreReuseAfterTheGraceOrTheNextRotation() {
        let t0 = token(), t1 = token(), t2 = token(), t3 = token()
        let rotated = record(t0).rotated(from: .current, newToken: t1, nowMs: now)
        let graced = rotated.rotated(from: .justRotated, newToken: t2, nowMs: now + 1000)  // t0 retried: t1 superseded
        #expect(graced.classify(tokenHash: t2.hash, nowMs: now + 2000, graceSeconds: 30) == .current)
        #expect(graced.classify(tokenHash: t1.hash, nowMs: now + 2000, graceSeconds: 30) == .supersededInGrace)
        #expect(graced.classify(tokenHash: t1.hash, nowMs: now + 31_000, graceSeconds: 30) == .supersededInGrace)
        #expect(graced.classify(tokenHash: t1.hash, nowMs: now + 31_001, graceSeconds: 30) == .reused)
        #expect(graced.classify(tokenHash: t0.hash, nowMs: now + 2000, graceSeconds: 30) == .justRotated)
        let again = graced.rotated(from: .current, newToken: t3, nowMs: now + 3000)
        #expect(again.classify(tokenHash: t1.hash, nowMs: now + 3001, graceSeconds: 30) == .reused)
        #expect(again.classify(tokenHash: t0.hash, nowMs: now + 3001, graceSeconds: 30) == .reused, "two rotations old")
        #expect(again.classify(tokenHash: t2.hash, nowMs: now + 3001, graceSeconds: 30) == .justRotated)
    }

    @Test func expiryIsAbsoluteAndRevocationSticks() {
        let t0 = token(), t1 = token()
        let r = record(t0, ttl: 60)
        let rotated = r.rotated(from: .current, newToken: t1, nowMs: now + 50_000)
        #expect(rotated.expiresAtMs == r.expiresAtMs)
        #expect(rotated.classify(tokenHash: t1.hash, nowMs: now + 60_000, graceSeconds: 30) == .expired)
        #expect(
            r.revoked(reason: "x", nowMs: now).classify(tokenHash: t0.hash, nowMs: now, graceSeconds: 30) == .revoked)
    }

    @Test func historyIsBoundedAndOldTokensFallOffAsUnknown() {
        let first = token()
        var r = record(first)
        var tokens = [first]
        for i in 0..<(SessionRecord.maxReplaced + 3) {
            let next = token()
            r = r.rotated(from: .current, newToken: next, nowMs: now + Int64(i))
            tokens.append(next)
        }
        #expect(r.replaced.count == SessionRecord.maxReplaced)
        #expect(r.classify(tokenHash: first.hash, nowMs: now + 100_000, graceSeconds: 30) == .unknown)
        #expect(r.classify(tokenHash: tokens[tokens.count - 3].hash, nowMs: now + 100_000, graceSeconds: 30) == .reused)
        var g = record(token()).rotated(from: .current, newToken: token(), nowMs: now)
        for _ in 0..<40 { g = g.rotated(from: .justRotated, newToken: token(), nowMs: now) }
        #expect(
            g.superseded.count == SessionRecord.maxSuperseded && g.replaced.count == 40 - SessionRecord.maxSuperseded)
    }

    @Test func recordJSONRoundTripsAndReadsVersionOne() throws {
        let r = record(token()).rotated(from: .current, newToken: token(), nowMs: now + 5)
        #expect(SessionRecord(json: r.json) == r && r.currentPresentedAtMs == nil)
        let graced = r.rotated(from: .justRotated, newToken: token(), nowMs: now + 9)
        #expect(SessionRecord(json: graced.json) == graced && graced.supersededAtMs == [now + 9])
        #expect(SessionRecord(json: graced.presented(nowMs: now + 10).json)?.currentPresentedAtMs == now + 10)
        // Written before sessions carried their identity: read with a provider-only identity.
        let v1 = try JSONParser.parse(
            Array(
                #"{"version":1,"sessionID":"\#(sid)","serviceUserID":"\#(uuid)","provider":"google","signInAt":"2026-01-01T00:00:00.000Z","expiresAt":"2026-02-01T00:00:00.000Z","generation":3,"current":{"hash":"ab","issuedAt":"2026-01-02T00:00:00.000Z"},"previous":null,"superseded":[],"revokedAt":null,"revokedReason":null}"#
                    .utf8))
        let old = try #require(SessionRecord(json: v1))
        #expect(
            old.identity == SessionIdentity(provider: .google, subject: nil, linkID: nil) && old.device == nil
                && old.replaced.isEmpty)
        // Written before v5: the current token counts as presented at issue (the v4 rule).
        #expect(old.currentPresentedAtMs == old.currentIssuedAtMs && old.supersededAtMs.isEmpty)
    }

    /// A record whose writer dropped `supersededAt` (or kept it partly) anchors the superseded
    /// tokens' grace at the normal rotation, as before v5.
    @Test func supersededTimesAreKeptOnlyWhole() throws {
        let t0 = token(), t1 = token()
        let graced = record(t0).rotated(from: .current, newToken: t1, nowMs: now)
            .rotated(from: .justRotated, newToken: token(), nowMs: now + 20_000)
        var json = graced.json.objectValue!
        json["supersededAt"] = .array([])
        let read = try #require(SessionRecord(json: .object(json)))
        #expect(read.supersededAtMs.isEmpty)
        #expect(read.classify(tokenHash: t1.hash, nowMs: now + 30_001, graceSeconds: 30) == .reused)
        #expect(graced.classify(tokenHash: t1.hash, nowMs: now + 30_001, graceSeconds: 30) == .supersededInGrace)
    }
}

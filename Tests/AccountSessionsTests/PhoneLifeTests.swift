import AWSClients
import AccountTestSupport
import Testing

/// Contract v5, "A phone's life never ends a session": the token just rotated out stays a lost
/// answer's retry for as long as its successor has not been presented, and the first
/// presentation to any other action is recorded before that action answers. Each test here
/// fails under the v4 rule (a late retry was reuse, and revoked the session).
@Suite struct PhoneLifeTests {
    let hour: Int64 = 3_600_000

    /// The app froze (or was killed) after the server committed its refresh; it comes back ten
    /// hours later with the token it still holds, and stays signed in. The successor it never
    /// read is superseded, refused without revoking anything.
    @Test func aRefreshWhoseAnswerWasLostIsAnsweredHoursLater() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        let lost = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        f.nowMs += 10 * hour
        let t2 = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        #expect(f.session(t2)?.isRevoked == false)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: lost.value, deadline: .none) } == "sessionInvalid")
        #expect(f.session(t2)?.isRevoked == false, "a superseded token inside its grace revokes nothing")
        _ = try f.service.sessions.refresh(token: t2.value, deadline: .none)
    }

    /// Theft detection is kept: once the new token has been presented (here to list, which
    /// records it before answering), the old one after the grace is reuse.
    @Test func theNewTokensFirstPresentationIsRecordedAndTheOldOneIsThenReuse() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        let t1 = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        #expect(f.session(t1)?.currentPresentedAtMs == nil)
        f.nowMs += 1_000
        _ = try f.service.sessions.listSessions(token: t1.value, deadline: .none)
        #expect(f.session(t1)?.currentPresentedAtMs == f.nowMs)
        let marked = f.backend.fingerprint
        _ = try f.service.sessions.listSessions(token: t1.value, deadline: .none)
        #expect(f.backend.fingerprint == marked, "recorded once, not at every call")
        f.nowMs += 31_000
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: t0.value, deadline: .none) } == "sessionInvalid")
        #expect(f.session(t1)?.isRevoked == true)
    }

    /// Two holders of one token still meet: a thief who refreshes the old token while the owner
    /// sleeps wins a new token, and the owner's token, superseded, is reuse after its grace.
    @Test func twoHoldersStillMeetAsReuse() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        let owner = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        f.nowMs += 2 * hour
        let thief = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        f.nowMs += 31_000
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: owner.value, deadline: .none) } == "sessionInvalid"
        )
        #expect(f.session(owner)?.isRevoked == true)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: thief.value, deadline: .none) } == "sessionInvalid"
        )
    }

    /// Another action with the just-rotated token: that client is behind. SESSION_INVALID, and
    /// nothing changes (it refreshes first, with the same token, and goes on); sign-out takes it.
    @Test func anotherActionWithTheJustRotatedTokenRevokesNothingButSignOutTakesIt() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        let t1 = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        f.nowMs += hour
        let before = f.backend.fingerprint
        #expect(
            accountError { _ = try f.service.sessions.listSessions(token: t0.value, deadline: .none) }
                == "sessionInvalid")
        #expect(
            accountError {
                _ = try f.service.links.link(token: t0.value, identity: AccountFixture.google(), deadline: .none)
            } == "sessionInvalid")
        #expect(
            accountError { _ = try f.service.sessions.signOutOthers(token: t0.value, deadline: .none) }
                == "sessionInvalid")
        #expect(f.backend.fingerprint == before)
        try f.service.sessions.signOut(token: t0.value, deadline: .none)
        #expect(f.session(t1)?.isRevoked == true)
    }

    /// A presentation that cannot be recorded fails as a failed refresh does: it consumes
    /// nothing, and the old token is still a lost answer's retry.
    @Test func aPresentationThatCannotBeRecordedConsumesNothing() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        let t1 = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        let before = f.backend.fingerprint
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key.contains("/sessions/") {
                return .fail(AWSError(kind: .unavailable, message: "s3 unreachable"))
            }
            return .proceed
        }
        #expect(
            accountError { _ = try f.service.sessions.listSessions(token: t1.value, deadline: .none) } == "upstream")
        f.backend.intercept = nil
        #expect(f.backend.fingerprint == before && f.session(t1)?.currentPresentedAtMs == nil)
        f.nowMs += hour
        _ = try f.service.sessions.refresh(token: t0.value, deadline: .none)
    }

    /// The record changed between the check and the recording (the same client's refresh of the
    /// token won): the action reads again and answers by what it finds, here the just-rotated
    /// token with an unpresented successor: SESSION_INVALID, nothing revoked.
    @Test func aPresentationThatLosesARaceToARefreshReadsAgain() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        let t1 = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key.contains("/sessions/") {
                raced = true
                _ = try? f.service.sessions.refresh(token: t1.value, deadline: .none)
            }
            return .proceed
        }
        #expect(
            accountError { _ = try f.service.sessions.listSessions(token: t1.value, deadline: .none) }
                == "sessionInvalid")
        f.backend.intercept = nil
        #expect(raced && f.session(t1)?.isRevoked == false)
    }

    /// REAUTHENTICATION_REQUIRED accepted the token as the session's current one: its first
    /// presentation is recorded all the same.
    @Test func aPresentationAnsweredReauthenticationRequiredIsRecorded() throws {
        let f = AccountFixture()
        let t0 = try f.signUp().session.refreshToken
        f.nowMs += 700_000
        let t1 = try f.service.sessions.refresh(token: t0.value, deadline: .none).session.refreshToken
        #expect(
            accountError { _ = try f.service.sessions.signOutOthers(token: t1.value, deadline: .none) }
                == "reauthenticationRequired")
        #expect(f.session(t1)?.currentPresentedAtMs == f.nowMs)
    }
}

import AWSClients
import AccountTestSupport
import StrictJSON
import Testing

@Suite struct RefreshTests {
    @Test func refreshTakesThreeRoundsAndSTSComesAfterTheRecordIsChecked() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        f.backend.rounds = 0
        f.backend.requests = 0
        var order: [String] = []
        f.backend.intercept = { call, _ in
            if case .assumeRole = call {
                order.append("sts")
            } else if call.isWrite {
                order.append("write")
            } else {
                order.append("read")
            }
            return .proceed
        }
        let out = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
        #expect(f.backend.rounds == 3 && f.backend.requests == 5)
        #expect(order == ["read", "read", "read", "sts", "write"])
        #expect(
            out.session.refreshToken != up.session.refreshToken
                && out.session.refreshTokenExpiresAtMs == up.session.refreshTokenExpiresAtMs)
    }

    /// Defect 1.
    @Test func aForgedSecretChangesNothingAndCostsNoSTSCall() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let forged = AccountFixture.forge(up.session.refreshToken)
        let before = f.backend.fingerprint
        let assumed = f.s3.assumed.count
        #expect(accountError { _ = try f.service.sessions.refresh(token: forged, deadline: .none) } == "sessionInvalid")
        #expect(accountError { try f.service.sessions.signOut(token: forged, deadline: .none) } == "sessionInvalid")
        #expect(
            accountError { _ = try f.service.sessions.listSessions(token: forged, deadline: .none) } == "sessionInvalid"
        )
        #expect(
            accountError {
                _ = try f.service.links.link(token: forged, identity: AccountFixture.google(), deadline: .none)
            }
                == "sessionInvalid")
        #expect(f.backend.fingerprint == before && f.s3.assumed.count == assumed)
        _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
    }

    /// Defect 5: STS fails after the record was read; the token stays exactly as usable (grace 0).
    @Test func aRefreshThatFailsAtSTSSpendsNothing() throws {
        let f = AccountFixture(grace: 0)
        let up = try f.signUp()
        let before = f.backend.fingerprint
        f.backend.intercept = { call, _ in
            if case .assumeRole = call { return .fail(AWSError(kind: .unavailable, message: "sts unreachable")) }
            return .proceed
        }
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none) }
                == "upstream")
        #expect(f.backend.fingerprint == before)
        f.backend.intercept = nil
        f.nowMs += 5_000
        _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
    }

    /// The rotation landed but its answer was lost and the transport's retry met 412: the record
    /// shows the refresh's own write, so it answers success (even with grace 0) and its token works.
    @Test func aLostAnswerToTheRotationIsRecognised() throws {
        let f = AccountFixture(grace: 0)
        let up = try f.signUp()
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key.contains("/sessions/") { return .appliedThenRetried }
            return .proceed
        }
        let out = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
        f.backend.intercept = nil
        #expect(
            f.session(out.session.refreshToken)?.classify(
                tokenHash: out.session.refreshToken.hash, nowMs: f.nowMs, graceSeconds: 0) == .current)
        _ = try f.service.sessions.refresh(token: out.session.refreshToken.value, deadline: .none)
    }

    @Test func aRefreshThatLosesARaceSettlesInTheGrace() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key.contains("/sessions/") {
                raced = true
                // The same token, refreshed first by another invocation.
                _ = try? f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
            }
            return .proceed
        }
        let out = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
        let record = try #require(f.session(out.session.refreshToken))
        #expect(raced && !record.isRevoked)
        #expect(record.classify(tokenHash: out.session.refreshToken.hash, nowMs: f.nowMs, graceSeconds: 30) == .current)
    }

    /// Defect 6: the thief replays the rotated-out token inside the grace and wins a new token;
    /// the owner's token (now superseded) after the grace is reuse, which ends the session for both.
    @Test func aSupersededTokenAfterTheGraceRevokesTheSession() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let owner = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none).session
            .refreshToken
        let thief = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none).session
            .refreshToken
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: owner.value, deadline: .none) } == "sessionInvalid"
        )
        #expect(f.session(owner)?.isRevoked == false, "inside the grace: refused, nothing revoked")
        f.nowMs += 31_000
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: owner.value, deadline: .none) } == "sessionInvalid"
        )
        #expect(f.session(owner)?.isRevoked == true)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: thief.value, deadline: .none) } == "sessionInvalid"
        )
    }

    @Test func signOutTakesTheJustRotatedTokenAndIsIdempotent() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
        try f.service.sessions.signOut(token: up.session.refreshToken.value, deadline: .none)
        try f.service.sessions.signOut(token: up.session.refreshToken.value, deadline: .none)
        #expect(f.session(up.session.refreshToken)?.isRevoked == true)
    }
}

@Suite struct SessionListTests {
    @Test func listShowsLiveSessionsNewestFirstAndClearsDeadOnes() throws {
        let f = AccountFixture()
        let a = try f.signUp(device: "iPhone")
        f.nowMs += 1000
        let b = try f.signUp(device: "Mac")
        f.nowMs += 1000
        let c = try f.signUp(device: nil)
        try f.service.sessions.signOut(token: b.session.refreshToken.value, deadline: .none)
        let list = try f.service.sessions.listSessions(token: c.session.refreshToken.value, deadline: .none)
        #expect(list.map(\.sessionID) == [c.session.refreshToken.sessionID, a.session.refreshToken.sessionID])
        #expect(list.map(\.isCurrent) == [true, false] && list.map(\.device) == [nil, "iPhone"])
        #expect(f.session(b.session.refreshToken) == nil, "the signed-out record is gone")
        // Only the current token lists; the just-rotated one does not.
        let rotated = try f.service.sessions.refresh(token: c.session.refreshToken.value, deadline: .none)
        #expect(
            accountError {
                _ = try f.service.sessions.listSessions(token: c.session.refreshToken.value, deadline: .none)
            }
                == "sessionInvalid")
        _ = try f.service.sessions.listSessions(token: rotated.session.refreshToken.value, deadline: .none)
    }

    /// The storm's find: a session that ends between its check and the listing (here another
    /// device signs everyone else out) answers SESSION_INVALID, not a list that marks no
    /// session current.
    @Test func aSessionEndingWhileItsSessionsAreListedIsInvalid() throws {
        let f = AccountFixture()
        let a = try f.signUp(), b = try f.signUp()
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3List = call {
                raced = true
                _ = try? f.service.sessions.signOutOthers(token: b.session.refreshToken.value, deadline: .none)
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.sessions.listSessions(token: a.session.refreshToken.value, deadline: .none)
            }
                == "sessionInvalid")
        #expect(raced)
        f.backend.intercept = nil
        let list = try f.service.sessions.listSessions(token: b.session.refreshToken.value, deadline: .none)
        #expect(list.map(\.sessionID) == [b.session.refreshToken.sessionID] && list.map(\.isCurrent) == [true])
    }

    @Test func signOutOthersAndSignOutSessionFollowTheRecentAuthRule() throws {
        let f = AccountFixture()
        let a = try f.signUp(), b = try f.signUp(), c = try f.signUp()
        f.nowMs += 601_000
        #expect(
            accountError {
                _ = try f.service.sessions.signOutOthers(token: c.session.refreshToken.value, deadline: .none)
            }
                == "reauthenticationRequired")
        #expect(
            accountError {
                try f.service.sessions.signOutSession(
                    token: c.session.refreshToken.value, sessionID: a.session.refreshToken.sessionID, deadline: .none)
            }
                == "reauthenticationRequired")
        try f.service.sessions.signOutSession(
            token: c.session.refreshToken.value, sessionID: c.session.refreshToken.sessionID, deadline: .none)
        #expect(f.session(c.session.refreshToken)?.isRevoked == true)
        let fresh = try f.signUp()
        #expect(try f.service.sessions.signOutOthers(token: fresh.session.refreshToken.value, deadline: .none) == 2)
        #expect(
            f.session(a.session.refreshToken)?.isRevoked == true && f.session(b.session.refreshToken)?.isRevoked == true
        )
        #expect(f.session(fresh.session.refreshToken)?.isRevoked == false)
    }

    @Test func anotherAccountsSessionIsUntouchable() throws {
        let f = AccountFixture()
        let mine = try f.signUp()
        let theirs = try f.signUp(AccountFixture.google("999"))
        let before = f.backend.fingerprint
        try f.service.sessions.signOutSession(
            token: mine.session.refreshToken.value, sessionID: theirs.session.refreshToken.sessionID, deadline: .none)
        #expect(f.backend.fingerprint == before)
        _ = try f.service.sessions.refresh(token: theirs.session.refreshToken.value, deadline: .none)
    }
}

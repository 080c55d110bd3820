import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing

/// Google's security events in the account domain (issue 25): the suspension's two homes, its
/// order by `iat`, one write ending every session, and the sign-in/sign-up/link refusals. The races
/// are the simulation's (SimulationWorld+GoogleEvents.swift); the whole path runs in
/// Tests/integration/test_google_risc.py.
@Suite struct GoogleSecurityEventsTests {
    let g = AccountFixture.google("222")

    func event(
        _ f: AccountFixture, _ effect: GoogleSecurityEffect?, sub: String = "222", iat: Int64,
        jti: String = "jti-\(Int.random(in: 0..<1_000_000))"
    ) throws -> GoogleSecurityEventResult {
        try f.service.googleEvents.processGoogleSecurityEvent(
            effect, subject: sub, eventID: jti, issuedAtMs: iat, deadline: .none)
    }

    /// An account signed up with Apple, `g` linked, and a session signed in with `g`.
    func account(_ f: AccountFixture) throws -> (uuid: String, apple: RefreshToken, google: RefreshToken) {
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g, deadline: .none)
        f.nowMs += 1_000
        let google = try f.service.signIn.signIn(identity: g, intent: .signin, fullName: nil, deadline: .none)
        return (up.account.serviceUserID, up.session.refreshToken, google.session.refreshToken)
    }

    @Test func theOrderIsTheTokensIatAndASuspensionWinsATie() {
        let on = IdentitySuspension(suspended: true, reason: "hijacking", eventIssuedAtMs: 10, changedAtMs: 99)
        let off = IdentitySuspension(suspended: false, reason: nil, eventIssuedAtMs: 10, changedAtMs: 98)
        #expect(on.supersedes(nil) && on.supersedes(off) && !off.supersedes(on))
        #expect(!on.supersedes(IdentitySuspension(suspended: false, reason: nil, eventIssuedAtMs: 11, changedAtMs: 0)))
        #expect(off.agrees(with: nil) && !on.agrees(with: nil) && on.agrees(with: on))
        #expect(IdentitySuspension(json: on.recordJSON) == on && IdentitySuspension(json: off.json) == off)
    }

    @Test func endingSessionsIsOneWriteAndASignInAfterItWorks() throws {
        let f = AccountFixture()
        let (uuid, apple, google) = try account(f)
        f.nowMs += 1_000
        let result = try event(f, .endSessions, iat: f.nowMs / 1000 * 1000)
        #expect(result.outcome == .processed && result.serviceUserID == uuid && result.sessionsEnded)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: google.value, deadline: .none) }
                == "sessionInvalid")
        _ = try f.service.sessions.refresh(token: apple.value, deadline: .none)
        f.nowMs += 1
        let again = try f.service.signIn.signIn(identity: g, intent: .signin, fullName: nil, deadline: .none)
        _ = try f.service.sessions.refresh(token: again.session.refreshToken.value, deadline: .none)
    }

    @Test func aSuspensionRefusesSignInSignUpAndLinkUntilItIsLifted() throws {
        let f = AccountFixture()
        let (uuid, apple, google) = try account(f)
        let issued = f.nowMs
        let suspended = try event(f, .suspend(reason: "hijacking"), iat: issued)
        #expect(suspended.outcome == .processed && suspended.suspension?.suspended == true)
        #expect(f.providers(uuid)?.isSuspended(.google, id: "222") == true)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: google.value, deadline: .none) }
                == "sessionInvalid")
        let before = f.backend.fingerprint
        for intent in [SignInIntent.signin, .auto, .signup] {
            #expect(
                accountError {
                    _ = try f.service.signIn.signIn(identity: g, intent: intent, fullName: nil, deadline: .none)
                }
                    == "identitySuspended")
        }
        #expect(
            accountError { _ = try f.service.links.link(token: apple.value, identity: g, deadline: .none) }
                == "identitySuspended")
        #expect(f.backend.fingerprint == before, "a refused sign-in or link wrote something")
        // A late lift (issued before the suspension) changes nothing; a newer one lifts it.
        #expect(try event(f, .lift, iat: issued - 1).suspension?.suspended == true)
        #expect(try event(f, .lift, iat: issued + 1).suspension?.suspended == false)
        f.nowMs += 1
        let back = try f.service.signIn.signIn(identity: g, intent: .signin, fullName: nil, deadline: .none)
        #expect(back.account.serviceUserID == uuid)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: google.value, deadline: .none) }
                == "sessionInvalid")
    }

    @Test func anIdentityNoAccountHoldsIsSuspendedToo() throws {
        let f = AccountFixture()
        let result = try event(f, .suspend(reason: "hijacking"), sub: "333", iat: f.nowMs)
        #expect(result.outcome == .unknownIdentity && result.serviceUserID == nil)
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(
                    identity: AccountFixture.google("333"), intent: .auto, fullName: nil, deadline: .none)
            } == "identitySuspended")
        #expect(f.s3.current(AccountKeys.identity(.google, "333")) == nil, "the refused sign-up made an account")
    }

    @Test func eachEventIsProcessedOnceAndTheOthersOnlyAcknowledged() throws {
        let f = AccountFixture()
        let (_, _, google) = try account(f)
        #expect(try event(f, nil, iat: f.nowMs, jti: "log-only").outcome == .acknowledged)
        _ = try f.service.sessions.refresh(token: google.value, deadline: .none)
        #expect(try event(f, .endSessions, iat: f.nowMs, jti: "once").outcome == .processed)
        let before = f.backend.fingerprint
        #expect(try event(f, .suspend(reason: "hijacking"), iat: f.nowMs, jti: "once").outcome == .duplicate)
        #expect(f.backend.fingerprint == before)
        #expect(try event(f, .endSessions, sub: "../x", iat: f.nowMs).outcome == .acknowledged)
    }

    @Test func aSessionCheckReadsTheEntry() throws {
        let f = AccountFixture()
        let (uuid, _, google) = try account(f)
        var doc = try #require(f.providers(uuid))
        let record = try #require(f.session(google))
        #expect(doc.accepts(record))
        let i = try #require(doc.index(of: .google, id: "222"))
        doc.providers[i].sessionsNotBeforeMs = record.signInAtMs + 1
        #expect(!doc.accepts(record))
        doc.providers[i].sessionsNotBeforeMs = record.signInAtMs
        #expect(!doc.accepts(record), "ended at the very millisecond it signed in: ended")
        doc.providers[i].sessionsNotBeforeMs = record.signInAtMs - 1
        #expect(doc.accepts(record))
        doc.providers[i].suspension = IdentitySuspension(
            suspended: true, reason: "hijacking", eventIssuedAtMs: 1, changedAtMs: 1)
        #expect(!doc.accepts(record))
        #expect(ProvidersDocument(json: doc.json) == doc, "the entry's new members round-trip")
    }
}

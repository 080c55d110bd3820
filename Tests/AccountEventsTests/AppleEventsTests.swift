import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing

@Suite struct AppleEventTests {
    let g1 = AccountFixture.google("111")
    let apple = AccountFixture.apple.subject
    let far = Deadline.after(milliseconds: 60_000)

    func event(
        _ f: AccountFixture, _ e: AppleAccountEvent, jti: String = "jti-\(Int.random(in: 0..<1_000_000))"
    ) throws -> AppleEventOutcome {
        try f.service.appleEvents.handleAppleEvent(e, subject: apple, eventID: jti, purgeUntil: far, deadline: .none)
    }

    @Test func emailRelayStateIsRecordedOnTheAppleEntry() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        #expect(try event(f, .emailDisabled) == .processed)
        #expect(f.providers(up.account.serviceUserID)?.providers.first?.emailDeliverable == false)
        #expect(try event(f, .emailEnabled) == .processed)
        #expect(f.providers(up.account.serviceUserID)?.providers.first?.emailDeliverable == true)
    }

    @Test func eachEventIsProcessedAtMostOnce() throws {
        let f = AccountFixture()
        _ = try f.signUp()
        #expect(try event(f, .emailDisabled, jti: "same") == .processed)
        let before = f.backend.fingerprint
        #expect(try event(f, .emailEnabled, jti: "same") == .duplicate)
        #expect(f.backend.fingerprint == before)
        #expect(
            try event(f, .emailDisabled, jti: String(repeating: "x/", count: 100)) == .processed,
            "an odd jti is hashed into the key")
    }

    @Test func consentRevokedEndsTheAppleSessionsAndKeepsTheLink() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let viaGoogle = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
        #expect(try event(f, .consentRevoked) == .processed)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none) }
                == "sessionInvalid")
        _ = try f.service.sessions.refresh(token: viaGoogle.session.refreshToken.value, deadline: .none)
        #expect(f.providers(up.account.serviceUserID)?.providers.count == 2)
        _ = try f.signUp()  // signing in with Apple again works
    }

    @Test func anAppleIDDeletedUnlinksItOrDeletesTheAccountWhenItWasTheLastProvider() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        #expect(try event(f, .accountDelete) == .processed)
        #expect(f.providers(up.account.serviceUserID)?.providers.map(\.type) == [.google])
        #expect(f.s3.current(AccountKeys.identity(.apple, apple)) == nil)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none) }
                == "sessionInvalid")
        let only = AccountFixture()
        let solo = try only.signUp()
        #expect(try event(only, .accountDelete) == .processed)
        #expect(only.s3.versions(under: AccountKeys.userPrefix(solo.account.serviceUserID)) == 0)
        #expect(try event(only, .emailDisabled) == .unknownIdentity)
    }
}

import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing

/// Issue 18, defect 7: an Apple account event says what it changed, so that the function audits
/// and counts it like the user's own unlink or delete.
@Suite struct AppleEventChangeTests {
    let apple = AccountFixture.apple.subject
    let far = Deadline.after(milliseconds: 60_000)

    func process(_ f: AccountFixture, _ e: AppleAccountEvent, jti: String) throws -> AppleEventResult {
        try f.service.appleEvents.processAppleEvent(e, subject: apple, eventID: jti, purgeUntil: far, deadline: .none)
    }

    @Test func accountDeleteBesideAnotherProviderIsAnUnlink() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.service.links.link(
            token: up.session.refreshToken.value, identity: AccountFixture.google("111"), deadline: .none)
        let result = try process(f, .accountDelete, jti: "j1")
        #expect(
            result == AppleEventResult(outcome: .processed, change: .unlinked(serviceUserID: up.account.serviceUserID)))
        #expect(try process(f, .accountDelete, jti: "j1") == AppleEventResult(outcome: .duplicate))
    }

    @Test func accountDeleteOfTheLastProviderIsADeletion() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        #expect(
            try process(f, .accountDelete, jti: "j2")
                == AppleEventResult(
                    outcome: .processed, change: .deleted(serviceUserID: up.account.serviceUserID, purgeComplete: true))
        )
        // The account is gone: a later event changes nothing.
        #expect(try process(f, .accountDelete, jti: "j3") == AppleEventResult(outcome: .unknownIdentity))
    }

    @Test func otherEventsMakeNoChangeToAudit() throws {
        let f = AccountFixture()
        _ = try f.signUp()
        #expect(try process(f, .emailDisabled, jti: "j4") == AppleEventResult(outcome: .processed))
        #expect(try process(f, .consentRevoked, jti: "j5") == AppleEventResult(outcome: .processed))
    }
}

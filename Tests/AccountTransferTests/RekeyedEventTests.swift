import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing
import TokenVerification

/// Contract v5, "A re-keyed identity keeps its history" (issue 35, defect 1): after an app
/// transfer re-keyed the Apple link, Apple's events about the new `sub` reach every session and
/// entry of that identity, those signed in under the former `sub` included.
@Suite struct RekeyedEventTests {
    /// Before: `consent-revoked` compared the session's stored `sub`, so the session signed in
    /// before the transfer (former `sub`) kept refreshing and getting AWS credentials.
    @Test func consentRevokedForTheNewSubEndsTheSessionsSignedInBeforeTheTransfer() throws {
        let f = AccountFixture()
        let (first, _) = try TransferTests().prepared(f)
        let after = try f.service.signIn.signIn(
            identity: TransferTests.moved(), intent: .auto, fullName: nil, deadline: .none)
        #expect(after.account.serviceUserID == first.account.serviceUserID)
        let google = AccountFixture.google("222")
        _ = try f.service.links.link(token: after.session.refreshToken.value, identity: google, deadline: .none)
        let viaGoogle = try f.service.signIn.signIn(identity: google, intent: .signin, fullName: nil, deadline: .none)
        _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none)
        #expect(
            try f.service.appleEvents.handleAppleEvent(
                .consentRevoked, subject: TransferTests.newSub, eventID: "jti-consent", purgeUntil: .none,
                deadline: .none) == .processed)
        for token in [first.session.refreshToken, after.session.refreshToken] {
            #expect(
                accountError { _ = try f.service.sessions.refresh(token: token.value, deadline: .none) }
                    == "sessionInvalid")
        }
        _ = try f.service.sessions.refresh(token: viaGoogle.session.refreshToken.value, deadline: .none)
    }

    /// `account-delete` and `email-disabled` about the new `sub` reach the re-keyed entry, and the
    /// deletion ends the sessions signed in under the former `sub`.
    @Test func accountDeleteAndEmailDisabledForTheNewSubReachTheReKeyedLink() throws {
        let f = AccountFixture()
        let (first, _) = try TransferTests().prepared(f)
        let uuid = first.account.serviceUserID
        _ = try f.service.signIn.signIn(identity: TransferTests.moved(), intent: .auto, fullName: nil, deadline: .none)
        #expect(
            try f.service.appleEvents.handleAppleEvent(
                .emailDisabled, subject: TransferTests.newSub, eventID: "jti-mail", purgeUntil: .none,
                deadline: .none) == .processed)
        #expect(f.providers(uuid)?.active(.apple)?.emailDeliverable == false)
        #expect(
            try f.service.appleEvents.handleAppleEvent(
                .accountDelete, subject: TransferTests.newSub, eventID: "jti-delete", purgeUntil: .none,
                deadline: .none) == .processed)
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none) }
                == "sessionInvalid")
    }
}

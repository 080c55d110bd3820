import AWSClients
import AccountTestSupport
import Testing
import TokenVerification

/// Issue 23, defect 5 (the first item): "every" session means every one, past the first listing
/// page of 1,000 (contract v4). On main `liveSessions` read one page, so signoutOthers and
/// consent-revoked left the sessions listed after it; unlink, delete and the operator's revoke
/// were verified here too (they do not depend on that listing, or walk every page).
@Suite struct SessionListPagesTests {
    static let beyondOnePage = 1_001
    let g1 = AccountFixture.google("111")

    /// `count` more sessions of `identity`'s account, each a sign-in of its own.
    func sessions(_ f: AccountFixture, _ identity: VerifiedIdentity, _ count: Int) throws -> [RefreshToken] {
        try (0..<count).map { _ in
            try f.service.signIn.signIn(identity: identity, intent: .signin, fullName: nil, deadline: .none).session
                .refreshToken
        }
    }

    func live(_ f: AccountFixture, _ tokens: [RefreshToken]) -> Int {
        tokens.filter { f.session($0)?.isLive(nowMs: f.nowMs) == true }.count
    }

    @Test func signoutOthersEndsEverySessionPastTheFirstPage() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let others = try sessions(f, AccountFixture.apple, Self.beyondOnePage)
        let ended = try f.service.sessions.signOutOthers(token: up.session.refreshToken.value, deadline: .none)
        #expect(ended == Self.beyondOnePage)
        #expect(live(f, others) == 0, "sessions listed after the first page outlived signoutOthers")
        #expect(live(f, [up.session.refreshToken]) == 1)
    }

    @Test func listShowsEverySession() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try sessions(f, AccountFixture.apple, Self.beyondOnePage)
        let listed = try f.service.sessions.listSessions(token: up.session.refreshToken.value, deadline: .none)
        #expect(listed.count == Self.beyondOnePage + 1 && listed.filter(\.isCurrent).count == 1)
    }

    @Test func consentRevokedEndsEveryAppleSession() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let apple = try sessions(f, AccountFixture.apple, Self.beyondOnePage) + [up.session.refreshToken]
        let google = try sessions(f, g1, 1)
        _ = try f.service.appleEvents.handleAppleEvent(
            .consentRevoked, subject: AccountFixture.apple.subject, eventID: "jti-consent", purgeUntil: .none,
            deadline: .none)
        #expect(live(f, apple) == 0, "Apple sessions listed after the first page outlived consent-revoked")
        #expect(live(f, google) == 1)
    }

    /// Verified, not a defect: unlink and delete end sessions through the check every session
    /// makes (its link listed, its account not deleted), whatever any listing holds.
    @Test func unlinkAndDeleteEndEverySession() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let google = try sessions(f, g1, Self.beyondOnePage)
        _ = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
        for token in google {
            #expect(
                accountError { _ = try f.service.sessions.refresh(token: token.value, deadline: .none) }
                    == "sessionInvalid")
        }
        let apple = try sessions(f, AccountFixture.apple, Self.beyondOnePage)
        _ = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        for token in apple {
            #expect(
                accountError { _ = try f.service.sessions.refresh(token: token.value, deadline: .none) }
                    == "sessionInvalid")
        }
    }

    /// Verified, not a defect: the operator's revoke walks every listing page.
    @Test func theOperatorsRevokeEndsEverySession() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let all = try sessions(f, AccountFixture.apple, Self.beyondOnePage) + [up.session.refreshToken]
        let ended = try f.service.operatorFlow.revokeSessions(
            up.account.serviceUserID, only: nil, reason: "ticket", deadline: .none)
        #expect(ended == all.count && live(f, all) == 0)
    }
}

import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing

/// ACCOUNT_DISABLED and the operator's actions (issue 20, docs/operations.md).
@Suite struct OperatorTests {
    let far = Deadline.after(milliseconds: 60_000)
    let disable = AccountDisable(reason: "abuse", atMs: 1_800_000_000_000, by: "arn:aws:iam::1:user/ops")

    /// The bucket's state as versions per key, ignoring keys left with no version at all (a
    /// refused sign-in's own session record, purged again).
    func state(_ f: AccountFixture) -> [String] { f.backend.fingerprint.filter { !$0.hasSuffix(":") } }

    func linked(_ f: AccountFixture) throws -> SignInOutcome {
        let up = try f.signUp()
        _ = try f.service.links.link(
            token: up.session.refreshToken.value, identity: AccountFixture.google(), deadline: .none)
        return up
    }

    @Test func aDisabledAccountRefusesEveryOwnActionAndWritesNothing() throws {
        let f = AccountFixture()
        let up = try linked(f)
        let token = up.session.refreshToken.value, uuid = up.account.serviceUserID
        #expect(try f.service.operatorFlow.setDisabled(uuid, disable, deadline: .none))
        #expect(f.providers(uuid)?.disabled == disable)
        let before = state(f)
        let s = f.service
        let refusals: [() throws -> Void] = [
            { _ = try s.sessions.refresh(token: token, deadline: .none) },
            { try s.sessions.signOut(token: token, deadline: .none) },
            { _ = try s.sessions.listSessions(token: token, deadline: .none) },
            { _ = try s.sessions.signOutOthers(token: token, deadline: .none) },
            {
                try s.sessions.signOutSession(
                    token: token, sessionID: up.session.refreshToken.sessionID, deadline: .none)
            },
            { _ = try s.links.unlink(token: token, provider: .google, deadline: .none) },
            { _ = try s.links.link(token: token, identity: AccountFixture.google("222"), deadline: .none) },
            { _ = try s.deletion.deleteAccount(token: token, purgeUntil: far, deadline: .none) },
            { _ = try f.signUp() },
            {
                _ = try s.signIn.signIn(
                    identity: AccountFixture.google(), intent: .signin, fullName: nil, deadline: .none)
            },
            {
                _ = try s.signIn.signIn(identity: AccountFixture.apple, intent: .signup, fullName: nil, deadline: .none)
            },
        ]
        for (n, action) in refusals.enumerated() {
            #expect(accountError(action) == "accountDisabled", "action \(n)")
        }
        #expect(state(f) == before, "a refused action changed the bucket")
        #expect(f.session(up.session.refreshToken)?.isRevoked == false)

        #expect(try f.service.operatorFlow.setDisabled(uuid, nil, deadline: .none))
        let again = try f.service.sessions.refresh(token: token, deadline: .none)
        #expect(again.account.serviceUserID == uuid, "the same session works again after enable")
    }

    @Test func reuseOfAReplacedTokenWhileDisabledRevokesNothing() throws {
        let f = AccountFixture(grace: 0)
        let up = try f.signUp()
        let first = up.session.refreshToken.value
        let second = try f.service.sessions.refresh(token: first, deadline: .none).session.refreshToken
        try #require(try f.service.operatorFlow.setDisabled(up.account.serviceUserID, disable, deadline: .none))
        #expect(accountError { _ = try f.service.sessions.refresh(token: first, deadline: .none) } == "accountDisabled")
        #expect(f.session(second)?.isRevoked == false)
        // A token the session never issued learns nothing about the disable.
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: AccountFixture.forge(second), deadline: .none) }
                == "sessionInvalid")
    }

    @Test func applesNotificationsAndTheOperatorStillActOnADisabledAccount() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        try #require(try f.service.operatorFlow.setDisabled(uuid, disable, deadline: .none))
        let outcome = try f.service.appleEvents.handleAppleEvent(
            .emailDisabled, subject: AccountFixture.apple.subject, eventID: "jti-1", purgeUntil: far, deadline: .none)
        #expect(outcome == .processed && f.providers(uuid)?.providers.first?.emailDeliverable == false)
        #expect(try f.service.operatorFlow.revokeSessions(uuid, only: nil, reason: "operator", deadline: .none) == 1)
        let deleted = try f.service.operatorFlow.deleteAccount(operatorDeletes: uuid, purgeUntil: far, deadline: .none)
        #expect(deleted.purgeComplete && deleted.appleSubject == AccountFixture.apple.subject)
        #expect(f.s3.current(AccountKeys.identity(.apple, AccountFixture.apple.subject)) == nil)
        #expect(
            accountError { _ = try f.service.operatorFlow.setDisabled(uuid, disable, deadline: .none) }
                == "accountNotFound")
    }

    @Test func anOperatorDeletionLeavesWhatTheAppsDeletionLeaves() throws {
        let f = AccountFixture()
        let app = try f.signUp()
        let op = try f.signUp(AccountFixture.google("333"))
        _ = try f.service.deletion.deleteAccount(
            token: app.session.refreshToken.value, purgeUntil: far, deadline: .none)
        _ = try f.service.operatorFlow.deleteAccount(
            operatorDeletes: op.account.serviceUserID, purgeUntil: far, deadline: .none)
        func left(_ uuid: String) -> [String] {
            f.s3.history.filter { $0.key.hasPrefix("users/\(uuid)/") && !$0.value.isEmpty }.keys.sorted()
        }
        #expect(left(app.account.serviceUserID).isEmpty && left(op.account.serviceUserID).isEmpty)
        let a = f.s3.json(AccountKeys.deletion(app.account.serviceUserID)).flatMap(DeletionRecord.init(json:))
        let o = f.s3.json(AccountKeys.deletion(op.account.serviceUserID)).flatMap(DeletionRecord.init(json:))
        #expect(a?.mappingsRemoved == o?.mappingsRemoved && a?.purgeComplete == o?.purgeComplete)
        #expect(a?.purgePasses == o?.purgePasses && o?.committedAtMs != nil)
    }

    @Test func referencesNameAccountsByIdentityUUIDOrPurchase() {
        #expect(AccountReference("apple:001234.abc.0001") == .identity(.apple, "001234.abc.0001"))
        #expect(AccountReference("purchase:2000000123") == .purchase("2000000123"))
        #expect(
            AccountReference("0f8fad5b-d9cb-469f-a165-70867728950e") == .uuid("0f8fad5b-d9cb-469f-a165-70867728950e"))
        for bad in ["apple:../x", "purchase:12a", "twitter:1", "0F8FAD5B-D9CB-469F-A165-70867728950E", ""] {
            #expect(AccountReference(bad) == nil, "\(bad)")
        }
    }

    @Test func exportShowsSessionsWithoutHashes() throws {
        let f = AccountFixture()
        let up = try f.signUp(device: "iPhone")
        let inspection = try f.service.operatorFlow.inspect(
            up.account.serviceUserID, withObjectKeys: true, deadline: .none)
        let text = inspection.json(nowMs: f.nowMs, forExport: true).serializedString()
        let record = try #require(f.session(up.session.refreshToken))
        #expect(!text.contains(record.currentHash) && !text.contains("linkID") && text.contains("iPhone"))
        #expect(inspection.objectKeys?.contains(AccountKeys.profile(up.account.serviceUserID)) == true)
    }
}

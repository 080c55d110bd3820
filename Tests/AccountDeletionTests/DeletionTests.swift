import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

@Suite struct DeletionTests {
    let g1 = AccountFixture.google("111")
    let far = Deadline.after(milliseconds: 60_000)

    /// An account with Apple and Google, photos in several versions, a deleted photo, a claim.
    func populated(_ f: AccountFixture) throws -> SignInOutcome {
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let uuid = up.account.serviceUserID
        for (key, body) in [
            ("photos/a.jpg", "v1"), ("photos/a.jpg", "v2"), ("thumbnails/a.jpg", "t"), ("metadata/a.json", "{}"),
        ] {
            f.s3.store(AccountKeys.userPrefix(uuid) + key, Array(body.utf8), contentType: "image/jpeg")
        }
        _ = f.s3.apply(.s3Delete(key: AccountKeys.userPrefix(uuid) + "metadata/a.json", condition: .none))
        f.s3.store(AccountKeys.purchaseClaim("2000000123456789"), Array(uuid.utf8), contentType: "text/plain")
        var providers = try #require(f.s3.json(AccountKeys.providers(uuid))?.objectValue)
        providers["purchases"] = .array([.string("2000000123456789")])
        f.s3.store(AccountKeys.providers(uuid), JSONValue.object(providers).serialized())
        return up
    }

    @Test func deletingLeavesNothingOfTheAccount() throws {
        let f = AccountFixture()
        let up = try populated(f)
        let uuid = up.account.serviceUserID
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
        #expect(out.serviceUserID == uuid && out.purgeComplete && out.appleSubject == AccountFixture.apple.subject)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0, "every version and delete marker")
        #expect(f.s3.history.keys.filter { $0.hasPrefix("identities/") }.isEmpty)
        #expect(f.s3.current(AccountKeys.purchaseClaim("2000000123456789")) == nil)
        let record = try #require(f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:)))
        #expect(
            record.committedAtMs != nil && record.mappingsRemoved && record.purgeComplete
                && record.secondPassDueAtMs != nil)
        #expect(record.json.serializedString().contains("a@privaterelay") == false, "no personal data")
        // Sessions are dead, former identities reach nothing of the old account.
        #expect(
            accountError { _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none) }
                == "sessionInvalid")
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
            }
                == "accountNotFound")
        let again = try f.signUp()
        #expect(again.isNewUser && again.account.serviceUserID != uuid)
    }

    /// Several pages of versions, each round's listing and deletion applied in either order: the
    /// version a listing continues after is deleted only once that listing has answered.
    @Test(arguments: [false, true]) func aPurgeOfSeveralPagesLeavesNothing(backwards: Bool) throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        for i in 0..<1_300 {
            let key = AccountKeys.userPrefix(uuid) + "photos/\(i).jpg"
            f.s3.store(key, [1], contentType: "image/jpeg")
            if i < 700 { f.s3.store(key, [2], contentType: "image/jpeg") }
            if i >= 1_100 { _ = f.s3.apply(.s3Delete(key: key, condition: .none)) }
        }
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) > 2_000)
        f.backend.applyRoundsBackwards = backwards
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
        #expect(out.purgeComplete)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0, "every version and delete marker")
    }

    @Test func aPurgeThatDoesNotFitIsPendingAndTheScheduledRunFinishesItThenPassesAgain() throws {
        let f = AccountFixture()
        let up = try populated(f)
        let uuid = up.account.serviceUserID
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: .after(milliseconds: 100), deadline: .none)
        #expect(!out.purgeComplete && f.s3.versions(under: AccountKeys.userPrefix(uuid)) > 0)
        #expect(f.s3.history.keys.filter { $0.hasPrefix("identities/") }.isEmpty, "the mappings go before the purge")
        var run = try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
        #expect(
            run == ScheduledRunOutcome(purged: 1, pending: 1) && f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0
        )
        // Credentials issued before the deletion write again; the second pass is not due yet...
        f.s3.store(AccountKeys.userPrefix(uuid) + "photos/late.jpg", Array("late".utf8))
        run = try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
        #expect(
            run == ScheduledRunOutcome(purged: 0, pending: 1) && f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 1
        )
        // ...and once they have expired it removes what they wrote.
        f.nowMs += Int64(f.settings.credentialsDurationSeconds) * 1000 + 120_000
        run = try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
        #expect(
            run == ScheduledRunOutcome(purged: 1, pending: 0) && f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0
        )
        #expect(f.s3.current(AccountKeys.deletion(uuid))?.tags.first?.1 == "deletion-done")
        #expect(
            try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
                == ScheduledRunOutcome(purged: 0, pending: 0))
    }

    @Test func aDeletionThatStoppedBeforeItsCommitIsFinishedByTheSchedule() throws {
        let f = AccountFixture()
        let up = try populated(f)
        let uuid = up.account.serviceUserID
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key.hasSuffix("providers.json") { return .fail(DirectBackend.outage) }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.deletion.deleteAccount(
                    token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
            } == "upstream")
        f.backend.intercept = nil
        #expect(f.s3.current(AccountKeys.deletion(uuid)) != nil && f.s3.current(AccountKeys.profile(uuid)) != nil)
        #expect(try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none).purged == 1)
        #expect(
            f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0
                && f.s3.history.keys.filter { $0.hasPrefix("identities/") }.isEmpty)
    }

    /// A sign-in read the identity file, then the deletion committed and purged: the sign-in must
    /// not complete the "half-made" account again.
    @Test func aSignInRacingTheDeletionNeverBringsTheAccountBack() throws {
        let f = AccountFixture()
        let up = try populated(f)
        let uuid = up.account.serviceUserID
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Get(let key) = call, key == AccountKeys.profile(uuid) {
                raced = true
                _ = try? f.service.deletion.deleteAccount(
                    token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
            }
                == "accountNotFound")
        #expect(raced && f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0, "its session record went too")
        let fresh = try f.service.signIn.signIn(identity: g1, intent: .auto, fullName: nil, deadline: .none)
        #expect(fresh.account.serviceUserID != uuid)
    }

    /// A link that claimed its slot before the commit: its activation sees the commit and it
    /// removes the identity file it wrote.
    @Test func aLinkRacingTheDeletionLeavesNoIdentityFile() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key.hasPrefix("identities/google/") {
                raced = true
                _ = try? f.service.deletion.deleteAccount(
                    token: up.session.refreshToken.value, purgeUntil: .after(milliseconds: 100), deadline: .none)
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
            }
                != nil)
        #expect(raced && f.s3.current(AccountKeys.identity(.google, "111")) == nil)
        // The deletion found the link's claim without its file: it waits until that link has surely ended.
        f.nowMs += DeletionFlow.linkSettleMs + 1
        _ = try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0)
    }

    @Test func deletionNeedsARecentSignIn() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        f.nowMs += 601_000
        #expect(
            accountError {
                _ = try f.service.deletion.deleteAccount(
                    token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
            } == "reauthenticationRequired")
        #expect(f.s3.current(AccountKeys.deletion(up.account.serviceUserID)) == nil)
    }
}

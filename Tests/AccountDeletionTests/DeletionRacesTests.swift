import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing
import TokenVerification

#if canImport(Glibc)
import Glibc
#endif

/// Issue 18's deletion defects, each staged at its exact moment over the in-memory S3 (whose
/// DeleteObjects reads the body after XML's rules, `S3XMLRules`).
@Suite struct DeletionRacesTests {
    let g1 = AccountFixture.google("111")
    let far = Deadline.after(milliseconds: 60_000)

    // MARK: defect 2: a link racing a deletion whose purge completes

    /// The link has claimed its slot; the deletion commits, finds no identity file yet and would
    /// purge providers.json; then the link's identity file lands.
    @Test func aLinkRacingADeletionWhosePurgeCompletesLeavesNoIdentityFile() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        var answered: DeletionOutcome?
        f.backend.intercept = { call, _ in
            if answered == nil, case .s3Put(let p) = call, p.key == AccountKeys.identity(.google, "111") {
                answered = try? f.service.deletion.deleteAccount(
                    token: up.session.refreshToken.value, purgeUntil: .none, deadline: .none)
            }
            return .proceed
        }
        let error = accountError {
            _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        }
        f.backend.intercept = nil
        // Issue 23, defect 5: SESSION_INVALID as docs/API.md says, not CONFLICT ("the link took too long").
        #expect(error == "sessionInvalid")
        #expect(answered != nil)
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil, "the link's file names the deleted UUID")
        // Once no invocation from before the commit can still run, the scheduled run finishes.
        f.nowMs += DeletionFlow.linkSettleMs + 1
        _ = try f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0)
        f.nowMs += Int64(f.settings.credentialsDurationSeconds) * 1000 + 120_000
        _ = try f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
        #expect(f.s3.keys.allSatisfy { !$0.hasPrefix("identities/") })
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
            }
                == "accountNotFound")
    }

    /// Even when the purge took providers.json before the link's file landed (a link that
    /// outlived every bound), the link removes its own file and says the account was deleted.
    @Test func aLinkFindingItsAccountPurgedRemovesItsFile() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key == AccountKeys.identity(.google, "111") {
                raced = true
                _ = try? f.service.deletion.deleteAccount(
                    token: up.session.refreshToken.value, purgeUntil: .none, deadline: .none)
                f.nowMs += DeletionFlow.linkSettleMs + 1
                _ = try? f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
            }
            return .proceed
        }
        let error = accountError {
            _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        }
        #expect(raced && f.s3.current(AccountKeys.providers(up.account.serviceUserID)) == nil)
        #expect(error == "sessionInvalid")
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil)
    }

    // MARK: defect 4: keys a user may write

    static let userKeys = [
        "photos/cr\rhere.jpg", "photos/crlf\r\nhere.jpg", "photos/lf\nhere.jpg", "photos/tab\there.jpg",
        "photos/soh\u{1}here.jpg", "photos/fffe\u{FFFE}.jpg", "photos/amp&<lt>\"'.jpg", "photos/nel\u{85}.jpg",
    ]

    /// What S3's parser reads back from the body is exactly what was listed (or the key goes one
    /// by one: a batch holding it would be refused whole).
    @Test func theDeleteObjectsBodyNamesExactlyTheListedKeys() throws {
        let carried = Self.userKeys.filter { XMLText.canCarry($0) }
        #expect(carried.count == Self.userKeys.count - 2)
        let versions = carried.map { S3ObjectVersion(key: "users/u/" + $0, versionID: "v1") }
        let read = try #require(S3XMLRules.deleteObjects(S3Client.deleteObjectsBody(versions)))
        #expect(read.map(\.key) == versions.map(\.key))
        for key in Self.userKeys where !XMLText.canCarry(key) {
            #expect(
                S3XMLRules.deleteObjects(S3Client.deleteObjectsBody([S3ObjectVersion(key: key, versionID: "v")])) == nil
            )
        }
    }

    @Test func thePurgeRemovesEveryKeyAUserWroteAndAbortsTheirUploads() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let prefix = AccountKeys.userPrefix(up.account.serviceUserID)
        for key in Self.userKeys { f.s3.store(prefix + key, [1, 2, 3], contentType: "image/jpeg") }
        f.s3.startUpload(prefix + "photos/big\r.mov")
        f.s3.startUpload(prefix + "photos/big.mov")
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
        #expect(out.purgeComplete)
        #expect(f.s3.versions(under: prefix) == 0, "\(f.s3.keys.filter { $0.hasPrefix(prefix) })")
        #expect(f.s3.uploads.isEmpty)
    }

    // MARK: the scheduled run: one failing deletion never holds back the others

    @Test func aDeletionWhosePurgeFailsStillAnswersPending() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        f.s3.poisonedPrefixes = [AccountKeys.userPrefix(up.account.serviceUserID)]
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: far, deadline: .none)
        #expect(!out.purgeComplete)
        #expect(f.providers(up.account.serviceUserID)?.isDeleted == true)
    }

    @Test func aPoisonedRecordAmongHealthyOnesHoldsNoneBack() throws {
        let f = AccountFixture()
        var healthy: [String] = []
        for n in 0..<4 {
            let up = try f.signUp(AccountFixture.google("10\(n)"))
            let uuid = up.account.serviceUserID
            f.s3.store(AccountKeys.userPrefix(uuid) + "photos/p.jpg", [1])
            _ = try f.service.deletion.deleteAccount(
                token: up.session.refreshToken.value, purgeUntil: Deadline(epochMilliseconds: 0), deadline: .none)
            if n == 1 { f.s3.poisonedPrefixes = [AccountKeys.userPrefix(uuid)] } else { healthy.append(uuid) }
        }
        // And a record nobody can read.
        f.s3.store(AccountKeys.deletion("00000000-0000-4000-8000-000000000000"), Array("{not json".utf8))
        let run = try f.service.deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
        // Pending: the three second passes not yet due, the poisoned purge, the unreadable record.
        #expect(run.purged == 3 && run.pending == 3 + 2 && run.failed == 1, "\(run)")
        for uuid in healthy { #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0) }
    }

    /// A deletion that would take far longer than the run (slow rounds, many pages) listed first:
    /// it gets its share, and the healthy ones after it still finish in this run.
    @Test func aSlowDeletionListedFirstLeavesTimeForTheOthers() throws {
        let f = AccountFixture()
        var uuids: [String] = []
        for n in 0..<3 {
            let up = try f.signUp(AccountFixture.google("20\(n)"))
            uuids.append(up.account.serviceUserID)
            f.s3.store(AccountKeys.userPrefix(up.account.serviceUserID) + "photos/p.jpg", [1])
            _ = try f.service.deletion.deleteAccount(
                token: up.session.refreshToken.value, purgeUntil: Deadline(epochMilliseconds: 0), deadline: .none)
        }
        uuids.sort()
        let slow = AccountKeys.userPrefix(uuids[0])
        for i in 0..<5_000 { f.s3.store(slow + "photos/\(i).jpg", [1]) }
        f.backend.intercept = { call, _ in
            if call.key?.hasPrefix(slow) == true { usleep(1_000_000) }
            return .proceed
        }
        // The walk starts at the all-zero UUID: the slow record comes first.
        let service = AccountFlows(
            backend: f.backend, settings: f.settings,
            environment: AccountEnvironment(
                now: { [f] in f.nowMs }, randomBytes: { [UInt8](repeating: 0, count: $0) }, pause: { _ in }))
        _ = try service.deletion.runScheduledDeletions(
            purgeUntil: .after(milliseconds: 8_000), deadline: .after(milliseconds: 10_000))
        #expect(f.s3.versions(under: slow) > 0, "the slow deletion had more than its share")
        for uuid in uuids.dropFirst() { #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0) }
    }

    @Test func eachRecordGetsAnEqualShareOfTheTimeLeft() {
        let share = DeletionFlow.share(of: .after(milliseconds: 20_000), among: 4).remainingMilliseconds
        #expect((4_000...5_000).contains(share))
        let floor = DeletionFlow.share(of: .after(milliseconds: 20_000), among: 1_000).remainingMilliseconds
        #expect(floor > AccountStore.purgeRoundMilliseconds, "at least one purge round each")
        #expect(DeletionFlow.share(of: .after(milliseconds: 1_000), among: 1).remainingMilliseconds <= 1_000)
    }

    // MARK: defect 6: Apple's account-delete racing an unlink

    @Test func appleAccountDeleteRacingAnUnlinkOfTheOtherProviderDeletesTheAccount() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid) {
                raced = true
                _ = try? f.service.links.unlink(
                    token: up.session.refreshToken.value, provider: .google, deadline: .none)
            }
            return .proceed
        }
        let outcome = try f.service.appleEvents.handleAppleEvent(
            .accountDelete, subject: AccountFixture.apple.subject, eventID: "jti-race", purgeUntil: far,
            deadline: .none)
        #expect(raced && outcome == .processed)
        #expect(
            f.s3.json(AccountKeys.deletion(uuid)) != nil, "the account is deleted, not left with the deleted Apple ID")
        #expect(f.s3.current(AccountKeys.identity(.apple, AccountFixture.apple.subject)) == nil)
        #expect(f.s3.current(AccountKeys.providers(uuid)) == nil)
    }

    /// The user replaced the Apple ID the event names (unlinked it, linked another) while the event
    /// was processed: only the named one may go.
    @Test func appleAccountDeleteRetiresOnlyTheAppleIDItNames() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let viaGoogle = try f.service.signIn.signIn(
            identity: g1, intent: .signin, fullName: nil, device: nil, deadline: .none)
        let newApple = VerifiedIdentity(
            provider: .apple, subject: "001234.abc.0002", email: "b@privaterelay.appleid.com", emailVerified: true,
            isPrivateEmail: true, realUserStatus: 2)
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid) {
                raced = true
                let token = viaGoogle.session.refreshToken.value
                _ = try? f.service.links.unlink(token: token, provider: .apple, deadline: .none)
                _ = try? f.service.links.link(token: token, identity: newApple, deadline: .none)
            }
            return .proceed
        }
        let outcome = try f.service.appleEvents.handleAppleEvent(
            .accountDelete, subject: AccountFixture.apple.subject, eventID: "jti-replaced", purgeUntil: far,
            deadline: .none)
        #expect(raced && outcome == .processed)
        let doc = try #require(f.providers(uuid))
        #expect(doc.active(.apple)?.id == newApple.subject, "the Apple ID the user linked meanwhile was retired")
        #expect(f.s3.current(AccountKeys.identity(.apple, newApple.subject)) != nil)
    }

    /// Simulation seed 7702079: two deliveries of Apple's `account-delete`. One found Google
    /// beside Apple, the other found Apple the last provider and began the deletion. Between the
    /// second's commit (providers.json) and its record's update, the first dropped the record as
    /// uncommitted; the account stayed deleted (its sessions refused) and was never purged. Now the
    /// drop keeps a record whose deletion committed, and a committed deletion whose record went
    /// anyway writes it again.
    @Test(arguments: ["drop", "gone"])
    func aCommittedDeletionKeepsItsRecordThroughAnAppleEventsDrop(_ how: String) throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        let linkID = up.account.providers.providers[0].linkID
        let record = try f.service.deletion.beginDeletion(
            uuid, cause: .appleAccountDelete(linkID: linkID), deadline: .none)
        var raced = false
        f.backend.intercept = { call, s3 in
            guard !raced, case .s3Put(let put) = call, put.key == AccountKeys.deletion(uuid) else { return .proceed }
            raced = true  // the commit is in providers.json; the record is about to say so
            if how == "drop" {
                try? f.service.deletion.dropUncommittedAppleDeletion(uuid, deadline: .none)
            } else {
                _ = s3.apply(.s3Delete(key: AccountKeys.deletion(uuid), condition: .none))
            }
            return .proceed
        }
        let state = try f.service.deletion.continueDeletion(
            uuid, record, account: nil, purgeUntil: .after(milliseconds: 60_000), deadline: .none)
        f.backend.intercept = nil
        guard case .recorded(let saved, _) = state else {
            Issue.record("the deletion was dropped")
            return
        }
        #expect(raced && saved.committedAtMs != nil && saved.purgeComplete)
        let stored = try #require(f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:)))
        #expect(stored.committedAtMs != nil, "the record the scheduled run finishes by is there")
        #expect(f.providers(uuid)?.isDeleted ?? true)
        #expect(!f.s3.keys.contains { $0.hasPrefix(AccountKeys.userPrefix(uuid)) }, "purged")
    }
}

import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing
import TokenVerification

/// Apple's user migration as the account domain sees it in these tests: each `sub` of the
/// sending team has a `transfer_sub`; the recipient exchanges it for the new `sub`.
final class FakeMigration: UserMigrationService {
    var transfers: [String: String] = [:]
    var exchanges: [String: String] = [:]
    var refused: Set<String> = []
    /// Answers `unavailable` after this many users (a midway stop).
    var unavailableAfter: Int?
    private(set) var asked: [String] = []

    func transferSubs(_ subs: [String], target: String, deadline: Deadline) -> [UserMigrationAnswer<String>] {
        subs.map { sub in
            if let n = unavailableAfter, asked.count >= n { return .unavailable("simulated 429s") }
            asked.append(sub)
            if refused.contains(sub) { return .refused("invalid_request") }
            return transfers[sub].map { .value($0) } ?? .refused("invalid_request")
        }
    }

    func exchange(_ transferSubs: [String], deadline: Deadline) -> [UserMigrationAnswer<MigratedUser>] {
        transferSubs.map { t in
            asked.append(t)
            return exchanges[t].map {
                .value(MigratedUser(sub: $0, email: "\($0)@privaterelay.appleid.com", isPrivateEmail: true))
            }
                ?? .refused("invalid_request")
        }
    }
}

/// Contract v4, "An app moved to another Apple developer team": prepare, the sign-in's re-key,
/// complete, and what they must never do.
@Suite struct TransferTests {
    static let team = "TEAMB12345"
    static let newSub = "009999.fedcba.0001"
    static let transferSub = "000111.transfer.0001"

    static func moved(transferSub: String? = TransferTests.transferSub) -> VerifiedIdentity {
        VerifiedIdentity(
            provider: .apple, subject: newSub, email: "new@privaterelay.appleid.com", emailVerified: true,
            isPrivateEmail: true, transferSub: transferSub)
    }

    func prepared(_ f: AccountFixture) throws -> (SignInOutcome, FakeMigration) {
        let first = try f.signUp()
        let api = FakeMigration()
        api.transfers[AccountFixture.apple.subject] = Self.transferSub
        api.exchanges[Self.transferSub] = Self.newSub
        let (run, _) = try f.service.appleTransfer.prepareAppleTransfer(
            team: Self.team, api: api, options: TransferPrepareOptions(), deadline: .none)
        #expect(run.done == 1 && run.finished)
        return (first, api)
    }

    @Test func prepareRecordsTheTransferOnTheLinkAndInItsFile() throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let uuid = first.account.serviceUserID
        #expect(f.s3.text(AccountKeys.appleTransfer(Self.transferSub)) == uuid)
        #expect(f.providers(uuid)?.active(.apple)?.transfers.map(\.sub) == [Self.transferSub])
        #expect(f.s3.json(AccountKeys.transferProgress(Self.team))?["finished"] == .bool(true))
    }

    /// Simulation seed 2302658: an unlink of the Apple identity committed after `prepare` recorded
    /// the transfer on the link and before it wrote the transfer file, so the unlink found no file
    /// to remove; the file then named an account that no longer held the identity, and the user's
    /// next account could never be prepared for the same transfer. `prepare` takes it back.
    @Test func aTransferFileWrittenAfterTheLinksUnlinkIsTakenBack() throws {
        let f = AccountFixture()
        let first = try f.signUp()
        let uuid = first.account.serviceUserID
        _ = try f.service.links.link(
            token: first.session.refreshToken.value, identity: AccountFixture.google("412"), deadline: .none)
        let api = FakeMigration()
        api.transfers[AccountFixture.apple.subject] = Self.transferSub
        let fileKey = AccountKeys.appleTransfer(Self.transferSub)
        var unlinked = false
        f.backend.intercept = { call, _ in
            guard !unlinked, case .s3Put(let put) = call, put.key == fileKey else { return .proceed }
            unlinked = true
            _ = try? f.service.links.unlink(token: first.session.refreshToken.value, provider: .apple, deadline: .none)
            return .proceed
        }
        let (run, _) = try f.service.appleTransfer.prepareAppleTransfer(
            team: Self.team, api: api, options: TransferPrepareOptions(), deadline: .none)
        f.backend.intercept = nil
        #expect(unlinked && f.providers(uuid)?.active(.apple) == nil, "the unlink committed")
        #expect(run.done == 0 && run.skipped == ["the identity was unlinked meanwhile": 1])
        #expect(f.s3.current(fileKey) == nil, "no transfer file names the account that let the identity go")
        // The same person signs up again with Apple: that account is prepared for the transfer.
        let again = try f.signUp()
        #expect(again.account.serviceUserID != uuid)
        let (second, _) = try f.service.appleTransfer.prepareAppleTransfer(
            team: Self.team, api: api, options: TransferPrepareOptions(restart: true), deadline: .none)
        #expect(second.done == 1 && second.failed == 0)
        #expect(f.s3.text(fileKey) == again.account.serviceUserID)
    }

    @Test func signInWithTheTransferReKeysTheSameAccountAndOldSessionsKeepRefreshing() throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let uuid = first.account.serviceUserID
        let out = try f.service.signIn.signIn(identity: Self.moved(), intent: .signup, fullName: nil, deadline: .none)
        #expect(out.account.serviceUserID == uuid && !out.isNewUser)
        let link = f.providers(uuid)!.active(.apple)!
        #expect(link.id == Self.newSub && link.formerIDs == [AccountFixture.apple.subject])
        #expect(link.linkID == f.linkID(of: Self.moved()), "the link keeps its link id")
        #expect(link.transfers.isEmpty, "cleaned up")
        #expect(
            f.s3.text(AccountKeys.identity(.apple, AccountFixture.apple.subject)) == uuid,
            "the old file stays (contract v5)")
        #expect(f.s3.current(AccountKeys.appleTransfer(Self.transferSub)) == nil, "transfer file gone")
        #expect(f.s3.json(AccountKeys.profile(uuid))?["email"]?.stringValue == "new@privaterelay.appleid.com")
        // The session signed in before the transfer refreshes; so does the new one.
        _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none)
        _ = try f.service.sessions.refresh(token: out.session.refreshToken.value, deadline: .none)
        // Contract v5 (issue 35, defect 2): a token that still carries the former sub (an older
        // install on the sending team's Services ID) signs in to the same account, whatever the
        // intent, and never makes a new one; its session follows the link. Before: a new, empty
        // account (`auto`) or ACCOUNT_NOT_FOUND.
        for intent in [SignInIntent.signin, .auto] {
            let old = try f.service.signIn.signIn(
                identity: AccountFixture.apple, intent: intent, fullName: nil, deadline: .none)
            #expect(old.account.serviceUserID == uuid && !old.isNewUser, "\(intent)")
            _ = try f.service.sessions.refresh(token: old.session.refreshToken.value, deadline: .none)
        }
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(
                    identity: AccountFixture.apple, intent: .signup, fullName: nil, deadline: .none)
            } == "accountAlreadyExists", "as for any identity an account holds")
        #expect(f.providers(uuid)?.active(.apple)?.id == Self.newSub, "the link keeps the new sub")
    }

    /// An unlink of the re-keyed link removes the former sub's file too, and the account's
    /// deletion releases it: after either, the former sub is nobody's (contract v5).
    @Test(arguments: ["unlink", "delete"])
    func theFormerSubsFileGoesWithTheLink(_ how: String) throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let uuid = first.account.serviceUserID
        let out = try f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
        let oldKey = AccountKeys.identity(.apple, AccountFixture.apple.subject)
        #expect(f.s3.text(oldKey) == uuid)
        if how == "unlink" {
            _ = try f.service.links.link(
                token: out.session.refreshToken.value, identity: AccountFixture.google("333"), deadline: .none)
            _ = try f.service.links.unlink(token: out.session.refreshToken.value, provider: .apple, deadline: .none)
        } else {
            _ = try f.service.deletion.deleteAccount(
                token: out.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        }
        #expect(f.s3.current(oldKey) == nil, "\(how)")
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(
                    identity: AccountFixture.apple, intent: .signin, fullName: nil, deadline: .none)
            } == "accountNotFound")
    }

    @Test func anUnlinkedTransferredIdentityDoesNotReviveItsOldSessions() throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let linked = try f.service.links.link(
            token: first.session.refreshToken.value, identity: AccountFixture.google(), deadline: .none)
        #expect(linked.status == .linked)
        let moved = try f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
        _ = try f.service.links.unlink(token: moved.session.refreshToken.value, provider: .apple, deadline: .none)
        #expect(
            accountError {
                _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none)
            }
                == "sessionInvalid")
        // Linked again later (a new link id): the old session stays dead.
        let google = try f.service.signIn.signIn(
            identity: AccountFixture.google(), intent: .signin, fullName: nil, deadline: .none)
        _ = try f.service.links.link(
            token: google.session.refreshToken.value, identity: Self.moved(transferSub: nil), deadline: .none)
        #expect(
            accountError {
                _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none)
            }
                == "sessionInvalid")
    }

    /// An unlink whose removal of the link's transfer file failed keeps the transfer on its retired
    /// entry: the unlink's retry removes the file, and so does the account's deletion (simulation
    /// seed 2033: the file outlived the deletion, which no longer saw the transfer on any link).
    @Test(arguments: ["retry", "deletion"])
    func aTransferFileAnUnlinkCouldNotRemoveIsRemovedByItsRetryOrTheDeletion(_ finish: String) throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let transferKey = AccountKeys.appleTransfer(Self.transferSub)
        let linked = try f.service.links.link(
            token: first.session.refreshToken.value, identity: AccountFixture.google(), deadline: .none)
        #expect(linked.status == .linked)
        let google = try f.service.signIn.signIn(
            identity: AccountFixture.google(), intent: .signin, fullName: nil, deadline: .none)
        f.backend.intercept = { call, _ in
            if case .s3Delete(let key, _) = call, key == transferKey { return .fail(DirectBackend.outage) }
            return .proceed
        }
        #expect(throws: AccountError.self) {
            _ = try f.service.links.unlink(token: google.session.refreshToken.value, provider: .apple, deadline: .none)
        }
        f.backend.intercept = nil
        #expect(f.s3.current(transferKey) != nil)
        let uuid = first.account.serviceUserID
        #expect(f.providers(uuid)?.retired.last?.transfers.map(\.sub) == [Self.transferSub])
        if finish == "retry" {
            _ = try f.service.links.unlink(token: google.session.refreshToken.value, provider: .apple, deadline: .none)
        } else {
            _ = try f.service.deletion.deleteAccount(
                token: google.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        }
        #expect(f.s3.current(transferKey) == nil, "\(finish)")
        #expect(f.service.storeCheck.checkStore(repair: false, deadline: .none).findings.isEmpty, "\(finish)")
    }

    @Test func aTransferNamingADeletedAccountIsIgnoredAndTheDeletionRemovesIt() throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        _ = try f.service.deletion.deleteAccount(
            token: first.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        #expect(f.s3.current(AccountKeys.appleTransfer(Self.transferSub)) == nil, "the deletion removed it")
        let out = try f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
        #expect(out.isNewUser && out.account.serviceUserID != first.account.serviceUserID)
    }

    @Test func aTransferIsIgnoredOnceTheLinkWasReKeyedToAnotherSub() throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        _ = try f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
        // A file put back by hand naming the account: the link is not prepared for it any more.
        _ = try f.backend.put(
            S3Put(
                key: AccountKeys.appleTransfer(Self.transferSub), body: Array(first.account.serviceUserID.utf8),
                contentType: "text/plain", condition: .ifNoneMatch), deadline: .none)
        var other = Self.moved()
        other.subject = "005555.other.0001"
        let out = try f.service.signIn.signIn(identity: other, intent: .auto, fullName: nil, deadline: .none)
        #expect(out.isNewUser && out.account.serviceUserID != first.account.serviceUserID)
        #expect(f.providers(first.account.serviceUserID)?.active(.apple)?.id == Self.newSub)
    }

    @Test func aCrashBetweenTheReKeysWritesIsRepairedByTheNextSignIn() throws {
        for stop in ["identities/apple/" + Self.newSub, "/account/providers.json", "identities/apple-transfer/"] {
            let f = AccountFixture()
            let (first, _) = try prepared(f)
            let uuid = first.account.serviceUserID
            var stopped = false
            f.backend.intercept = { call, _ in
                guard !stopped, case .s3Put(let put) = call, put.key.hasSuffix(stop) || put.key.hasPrefix(stop) else {
                    if !stopped, case .s3Delete(let key, _) = call, key.hasPrefix(stop) {
                        stopped = true
                        return .fail(DirectBackend.outage)
                    }
                    return .proceed
                }
                stopped = true
                return .appliedButFailed  // the write landed; the process died before the next
            }
            #expect(throws: AccountError.self) {
                _ = try f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
            }
            f.backend.intercept = nil
            let again = try f.service.signIn.signIn(
                identity: Self.moved(), intent: .signin, fullName: nil, deadline: .none)
            #expect(again.account.serviceUserID == uuid, "\(stop)")
            let link = f.providers(uuid)!.active(.apple)!
            #expect(link.id == Self.newSub && link.transfers.isEmpty, "\(stop)")
            #expect(f.s3.text(AccountKeys.identity(.apple, AccountFixture.apple.subject)) == uuid, "\(stop)")
            #expect(f.s3.current(AccountKeys.appleTransfer(Self.transferSub)) == nil, "\(stop)")
            _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none)
        }
    }

    @Test func checkFindsAndFinishesAReKeyStoppedAfterItsFile() throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let uuid = first.account.serviceUserID
        f.backend.intercept = { call, _ in
            if case .s3Put(let put) = call, put.key == AccountKeys.providers(uuid) {
                return .fail(DirectBackend.outage)
            }
            return .proceed
        }
        #expect(throws: AccountError.self) {
            _ = try f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
        }
        f.backend.intercept = nil
        let found = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        #expect(found.findings.map(\.kind) == [.unfinishedRekey])
        let repaired = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        #expect(repaired.findings.allSatisfy { $0.repaired == true })
        #expect(f.service.storeCheck.checkStore(repair: false, deadline: .none).findings.isEmpty)
        #expect(f.providers(uuid)?.active(.apple)?.id == Self.newSub)
        #expect(f.s3.current(AccountKeys.appleTransfer(Self.transferSub)) == nil)
    }

    /// The re-key stops after its commit (providers.json written, its answer lost), or in its
    /// clean-up (the transfer file's removal failing): check finds the unfinished re-key on
    /// providers.json and its repair removes the transfer file, by the version read, and keeps the
    /// old identity file (contract v5); the sessions from before keep refreshing.
    @Test(arguments: ["commit", "clean-up"])
    func checkFinishesAReKeyStoppedAfterItsCommit(_ stop: String) throws {
        let f = AccountFixture()
        let (first, _) = try prepared(f)
        let uuid = first.account.serviceUserID
        let oldKey = AccountKeys.identity(.apple, AccountFixture.apple.subject)
        let transferKey = AccountKeys.appleTransfer(Self.transferSub)
        var stopped = false
        f.backend.intercept = { call, _ in
            guard !stopped else { return .fail(DirectBackend.outage) }  // the process is gone
            switch call {
            case .s3Put(let put) where stop == "commit" && put.key == AccountKeys.providers(uuid):
                stopped = true
                return .appliedButFailed
            case .s3Delete(let key, _) where stop == "clean-up" && key == transferKey:
                stopped = true
                return .fail(DirectBackend.outage)
            default: return .proceed
            }
        }
        _ = try? f.service.signIn.signIn(identity: Self.moved(), intent: .auto, fullName: nil, deadline: .none)
        f.backend.intercept = nil
        #expect(f.providers(uuid)?.active(.apple)?.id == Self.newSub, "the commit landed")
        #expect(f.s3.current(oldKey) != nil)
        let found = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        #expect(
            found.findings.map(\.kind) == [.unfinishedRekey]
                && found.findings.first?.key == AccountKeys.providers(uuid),
            "\(found.findings.map { ($0.kind, $0.key) })")
        let repaired = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        #expect(repaired.findings.allSatisfy { $0.repaired == true })
        #expect(f.service.storeCheck.checkStore(repair: false, deadline: .none).findings.isEmpty)
        #expect(f.s3.text(oldKey) == uuid && f.s3.current(transferKey) == nil)
        #expect(f.providers(uuid)?.active(.apple)?.transfers.isEmpty == true)
        _ = try f.service.sessions.refresh(token: first.session.refreshToken.value, deadline: .none)
        let again = try f.service.signIn.signIn(identity: Self.moved(), intent: .signin, fullName: nil, deadline: .none)
        #expect(again.account.serviceUserID == uuid)
    }

    @Test func checkReportsAndRemovesATransferFileNamingAMissingAccount() throws {
        let f = AccountFixture()
        let stray = "0badc0de-0000-4000-8000-00000000abcd"
        _ = try f.backend.put(
            S3Put(key: AccountKeys.appleTransfer("000777.x.0001"), body: Array(stray.utf8), contentType: "text/plain"),
            deadline: .none)
        let found = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        #expect(found.findings.map(\.kind) == [.transferNamesMissingAccount] && found.transferFiles == 1)
        _ = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        #expect(f.s3.current(AccountKeys.appleTransfer("000777.x.0001")) == nil)
    }

    @Test func prepareResumesAfterItsLastRecordedIdentityAndAsksNobodyTwice() throws {
        let f = AccountFixture()
        let api = FakeMigration()
        var subs: [String] = []
        for n in 0..<7 {
            let identity = VerifiedIdentity(provider: .apple, subject: "00100\(n).user.000\(n)", email: nil)
            _ = try f.signUp(identity)
            subs.append(identity.subject)
            api.transfers[identity.subject] = "00200\(n).transfer.000\(n)"
        }
        api.refused = [subs[2]]
        api.unavailableAfter = 4
        let (stopped, _) = try f.service.appleTransfer.prepareAppleTransfer(
            team: Self.team, api: api, options: TransferPrepareOptions(batch: 3, saveEveryMs: 0), deadline: .none)
        #expect(!stopped.finished && stopped.stoppedBecause?.contains("429") == true)
        api.unavailableAfter = nil
        let (resumed, pass) = try f.service.appleTransfer.prepareAppleTransfer(
            team: Self.team, api: api, options: TransferPrepareOptions(batch: 3, saveEveryMs: 0), deadline: .none)
        #expect(resumed.finished && resumed.resumedAfter != nil)
        #expect(Set(api.asked).count == api.asked.count, "nobody asked twice: \(api.asked)")
        #expect(pass.done == 6 && pass.failed == 1 && pass.failures.map(\.who) == ["apple:\(subs[2])"])
        // A new pass later (users who signed up since) asks Apple about nobody already prepared.
        let before = api.asked.count
        let (again, _) = try f.service.appleTransfer.prepareAppleTransfer(
            team: Self.team, api: api, options: TransferPrepareOptions(), deadline: .none)
        #expect(again.already == 6 && api.asked.count == before + 1, "only the refused one again")
    }

    @Test func completeReKeysAUserWhoNeverSignedIn() throws {
        let f = AccountFixture()
        let (first, api) = try prepared(f)
        let report = try f.service.appleTransfer.completeAppleTransfer(
            team: Self.team, api: api, batch: 4, dryRun: false, deadline: .none)
        #expect(report.done == 1 && report.finished)
        let uuid = first.account.serviceUserID
        #expect(f.providers(uuid)?.active(.apple)?.id == Self.newSub)
        #expect(f.s3.text(AccountKeys.identity(.apple, Self.newSub)) == uuid)
        let later = try f.service.signIn.signIn(
            identity: Self.moved(transferSub: nil), intent: .signin, fullName: nil, deadline: .none)
        #expect(later.account.serviceUserID == uuid)
        // Nothing left to do: a second run asks Apple nothing.
        let asked = api.asked.count
        #expect(
            try f.service.appleTransfer.completeAppleTransfer(
                team: Self.team, api: api, batch: 4, dryRun: false, deadline: .none
            )
            .walked == 0)
        #expect(api.asked.count == asked)
    }
}

import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing
import TokenVerification

/// Issue 23, defect 2: Apple's `account-delete` deletes an account only while Apple is still its
/// only listed provider, judged inside the commit's conditional write (contract v4), whoever
/// commits: the event, Apple's retry or the scheduled run. Both reproductions of the issue, then
/// each interleaving with the racing link (or a fault) at every step of the event.
@Suite struct AppleDeletionCauseTests {
    let g1 = AccountFixture.google("111")
    let apple = AccountFixture.apple.subject

    func photo(_ uuid: String) -> String { AccountKeys.userPrefix(uuid) + "photos/holiday.jpg" }

    /// An Apple-only account with one photo.
    func appleOnly() throws -> (AccountFixture, SignInOutcome) {
        let f = AccountFixture()
        let up = try f.signUp()
        f.s3.store(photo(up.account.serviceUserID), [0xFF, 0xD8], contentType: "image/jpeg")
        return (f, up)
    }

    func deliver(_ f: AccountFixture, jti: String) throws(AccountError) -> AppleEventResult {
        try f.service.appleEvents.processAppleEvent(
            .accountDelete, subject: apple, eventID: jti, purgeUntil: .none, deadline: .none)
    }

    /// The scheduled runs that follow: once links from before a commit have settled, and once the
    /// second pass is due.
    func runSchedule(_ f: AccountFixture) {
        f.nowMs += DeletionFlow.linkSettleMs + 1
        _ = try? f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
        f.nowMs += Int64(f.settings.credentialsDurationSeconds) * 1000 + 120_000
        _ = try? f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
    }

    /// Whoever won, the user never ends up with a Google sign-in into a deleted account or one
    /// whose photos are gone; an account that stays has lost its Apple link (Apple's ID was
    /// deleted) and holds no deletion record.
    func expectConsistent(_ f: AccountFixture, _ uuid: String, linked: Bool, _ step: String) {
        let alive = f.providers(uuid).map { !$0.isDeleted } ?? false
        let googleFile = f.s3.text(AccountKeys.identity(.google, "111"))
        if linked { #expect(alive, "\(step): the link answered linked, and the account was deleted") }
        if alive {
            #expect(f.s3.current(photo(uuid)) != nil, "\(step): the account stays, its photos are gone")
            #expect(f.providers(uuid)?.providers.map(\.type) == [.google], "\(step): Apple's link outlived its event")
            #expect(f.s3.current(AccountKeys.identity(.apple, apple)) == nil, "\(step): Apple's file stays")
            #expect(f.s3.current(AccountKeys.deletion(uuid)) == nil, "\(step): the dropped record stays")
            #expect(googleFile == uuid, "\(step): the account stays without its Google file")
        } else {
            #expect(googleFile != uuid, "\(step): Google's file names the deleted account")
        }
        let signIn = Result {
            try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
        }
        switch signIn {
        case .success(let out):
            #expect(out.account.serviceUserID == uuid && alive, "\(step): Google reached another account")
            #expect(f.s3.current(photo(uuid)) != nil, "\(step): Google's sign-in works, the photos are gone")
        case .failure(let error):
            #expect(!alive, "\(step): Google's sign-in refused (\(error)) on a live account")
        }
    }

    // MARK: the two reproductions

    /// Google is linked while the event runs, just before its commit: 200 and the account gone on main.
    @Test func aGoogleLinkJustBeforeTheCommitKeepsTheAccount() throws {
        let (f, up) = try appleOnly()
        let uuid = up.account.serviceUserID
        var linked = false
        f.backend.intercept = { call, s3 in
            if !linked, case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid),
                s3.current(AccountKeys.deletion(uuid)) != nil
            {
                linked =
                    (try? f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none))
                    != nil
            }
            return .proceed
        }
        let result = try deliver(f, jti: "jti-commit")
        f.backend.intercept = nil
        #expect(linked, "the link ran before the commit")
        #expect(result == AppleEventResult(outcome: .processed, change: .unlinked(serviceUserID: uuid)))
        runSchedule(f)
        expectConsistent(f, uuid, linked: true, "link before the commit")
    }

    /// The first delivery writes the record and fails (503); the user links Google; Apple's retry
    /// unlinks Apple only; on main the next scheduled run then committed the leftover record.
    @Test func aRecordLeftByAFailedDeliveryNeverDeletesAnAccountLinkedSince() throws {
        let (f, up) = try appleOnly()
        let uuid = up.account.serviceUserID
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid) { return .fail(DirectBackend.outage) }
            return .proceed
        }
        #expect(accountError { _ = try deliver(f, jti: "jti-retried") } == "upstream")
        f.backend.intercept = nil
        #expect(f.s3.current(AccountKeys.deletion(uuid)) != nil, "the failed delivery left its record")
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        #expect(try deliver(f, jti: "jti-retried").change == .unlinked(serviceUserID: uuid))
        runSchedule(f)
        expectConsistent(f, uuid, linked: true, "retry, then the schedule")
    }

    /// The same record when Apple never retries: the scheduled run drops it, unlinking Apple itself.
    @Test func theScheduledRunDropsTheRecordAndUnlinksAppleItself() throws {
        let (f, up) = try appleOnly()
        let uuid = up.account.serviceUserID
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid) { return .fail(DirectBackend.outage) }
            return .proceed
        }
        _ = accountError { _ = try deliver(f, jti: "jti-lost") }
        f.backend.intercept = nil
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let run = try f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
        #expect(run.appleUnlinks == [uuid] && run.pending == 0)
        runSchedule(f)
        expectConsistent(f, uuid, linked: true, "the schedule alone")
    }

    /// Google is linked before the commit, and unlinked again while the event unlinks Apple: Apple
    /// is the last provider once more, so the event deletes the account after all, in the same
    /// delivery (simulation seed 3023 found it answering CONFLICT with its record left behind).
    @Test func aGoogleLinkUndoneWhileAppleIsUnlinkedStillDeletesTheAccount() throws {
        let (f, up) = try appleOnly()
        let uuid = up.account.serviceUserID
        let token = up.session.refreshToken.value
        var puts = 0
        f.backend.intercept = { call, s3 in
            guard case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid),
                s3.current(AccountKeys.deletion(uuid)) != nil
            else { return .proceed }
            puts += 1
            if puts == 1 { _ = try? f.service.links.link(token: token, identity: g1, deadline: .none) }
            if puts == 2 { _ = try? f.service.links.unlink(token: token, provider: .google, deadline: .none) }
            return .proceed
        }
        let result = try deliver(f, jti: "jti-undone")
        f.backend.intercept = nil
        #expect(puts >= 3, "the commit, the unlink of Apple, the commit again")
        #expect(result.change == .deleted(serviceUserID: uuid, purgeComplete: true))
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0)
        #expect(f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:))?.committedAtMs != nil)
    }

    /// While the event drops its deletion (Google listed at its commit), Google is unlinked and
    /// another run of the same record (the scheduled run) commits it first: the event must not
    /// drop the record of a committed deletion, or nothing would ever finish it (seed 18558).
    @Test func anotherRunCommittingWhileTheEventDropsKeepsTheRecord() throws {
        let (f, up) = try appleOnly()
        let uuid = up.account.serviceUserID
        let token = up.session.refreshToken.value
        var puts = 0
        f.backend.intercept = { call, s3 in
            guard case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid),
                s3.current(AccountKeys.deletion(uuid)) != nil
            else { return .proceed }
            puts += 1
            if puts == 1 { _ = try? f.service.links.link(token: token, identity: g1, deadline: .none) }
            if puts == 2 {
                // Google goes, and the other run commits (its record not saved yet).
                _ = try? f.service.links.unlink(token: token, provider: .google, deadline: .none)
                let record = f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:))!
                _ = try? f.service.deletion.commitDeletion(
                    f.service.store.loadAccount(uuid, deadline: .none), cause: record.cause, deadline: .none)
            }
            return .proceed
        }
        let result = try deliver(f, jti: "jti-both")
        f.backend.intercept = nil
        #expect(result.change == .deleted(serviceUserID: uuid, purgeComplete: true))
        let record = f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:))
        #expect(record?.committedAtMs != nil && record?.purgeComplete == true, "the committed deletion lost its record")
        runSchedule(f)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0)
        #expect(f.s3.current(AccountKeys.identity(.apple, apple)) == nil)
    }

    /// A request (the user's `delete`, an operator's) takes over the record Apple's event left: it
    /// commits whatever is linked.
    @Test func theUsersDeleteTakesOverARecordAppleLeft() throws {
        let (f, up) = try appleOnly()
        let uuid = up.account.serviceUserID
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key == AccountKeys.providers(uuid) { return .fail(DirectBackend.outage) }
            return .proceed
        }
        _ = accountError { _ = try deliver(f, jti: "jti-then-user") }
        f.backend.intercept = nil
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        #expect(out.purgeComplete && f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0)
        let record = f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:))
        #expect(record?.cause == .requested && record?.committedAtMs != nil)
    }

    // MARK: every step

    /// Interleaving 1: the link runs, whole, before the event's k-th call, for every k.
    @Test func aGoogleLinkAtEveryStepOfTheEventNeverLosesTheAccount() throws {
        for k in 0..<200 {
            let (f, up) = try appleOnly()
            let uuid = up.account.serviceUserID
            var calls = 0
            var linked = false
            f.backend.intercept = { _, _ in
                if calls == k {
                    linked =
                        (try? f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none))
                        != nil
                }
                calls += 1
                return .proceed
            }
            _ = try deliver(f, jti: "jti-\(k)")
            f.backend.intercept = nil
            if calls <= k { break }  // every step was raced
            runSchedule(f)
            expectConsistent(f, uuid, linked: linked, "link before call \(k)")
        }
    }

    /// Interleaving 2: the first delivery fails at its k-th call (not applied, or applied with
    /// its answer lost), for every k; then the user links Google, Apple retries, the schedule runs.
    @Test func aFailedDeliveryAtEveryStepThenALinkNeverLosesTheAccount() throws {
        for fault in [DirectBackend.Interception.fail(DirectBackend.outage), .appliedButFailed] {
            for k in 0..<200 {
                let (f, up) = try appleOnly()
                let uuid = up.account.serviceUserID
                var calls = 0
                f.backend.intercept = { _, _ in
                    defer { calls += 1 }
                    return calls == k ? fault : .proceed
                }
                _ = accountError { _ = try deliver(f, jti: "jti-\(k)") }
                f.backend.intercept = nil
                if calls <= k { break }
                let linked =
                    (try? f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none))
                    != nil
                _ = accountError { _ = try deliver(f, jti: "jti-\(k)") }  // Apple's retry
                runSchedule(f)
                expectConsistent(f, uuid, linked: linked, "\(fault) at call \(k)")
            }
        }
    }
}

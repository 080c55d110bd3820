import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

/// The scheduled run's walk over `deletions/`: finished records stay for the retention period,
/// so a pending one may sit behind thousands of them.
@Suite struct ScheduledRunTests {
    let far = Deadline.after(milliseconds: 60_000)

    /// A service whose first 16 random bytes (the run's starting point) are `origin`.
    func service(_ f: AccountFixture, origin: UInt8) -> AccountFlows {
        let calls = Counter()
        return AccountFlows(
            backend: f.backend, settings: f.settings,
            environment: AccountEnvironment(
                now: { [unowned f] in f.nowMs },
                randomBytes: { n in calls.next() == 0 ? [UInt8](repeating: origin, count: n) : SecureRandom.bytes(n) },
                pause: { _ in }))
    }

    /// An account deleted with no time to purge: its record is pending.
    func pendingDeletion(_ f: AccountFixture) throws -> String {
        let up = try f.signUp(AccountFixture.google("9\(f.s3.keys.count)"))
        f.s3.store(AccountKeys.userPrefix(up.account.serviceUserID) + "photos/a.jpg", Array("jpeg".utf8))
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: .after(milliseconds: 100), deadline: .none)
        #expect(!out.purgeComplete)
        return up.account.serviceUserID
    }

    /// `count` finished records, named so that they sort around `pending`: half before, half after.
    func finishedRecords(_ f: AccountFixture, _ count: Int) {
        for i in 0..<count {
            var record = DeletionRecord(serviceUserID: "", requestedAtMs: f.nowMs - 86_400_000)
            (record.committedAtMs, record.mappingsRemoved, record.purgeComplete) = (f.nowMs - 86_400_000, true, true)
            (record.purgePasses, record.secondPassDueAtMs, record.secondPassDoneAtMs) = (2, f.nowMs, f.nowMs)
            let hex = String(i, radix: 16)
            let uuid =
                (i.isMultiple(of: 2) ? "0" : "f") + String(repeating: "0", count: 7 - hex.count) + hex
                + "-0000-4000-8000-000000000000"
            record.serviceUserID = uuid
            f.s3.store(AccountKeys.deletion(uuid), record.json.serialized(), contentType: "application/json")
        }
    }

    /// 2,500 finished records (three listing pages) around two pending ones; wherever the run
    /// starts, it reaches both and reads every record once.
    @Test(arguments: [0x00, 0x7f, 0xff] as [UInt8]) func pendingDeletionsBehindManyFinishedOnesAreReached(
        origin: UInt8
    ) throws {
        let f = AccountFixture()
        let pending = [try pendingDeletion(f), try pendingDeletion(f)]
        finishedRecords(f, 2_500)
        var reads: [String: Int] = [:]
        f.backend.intercept = { call, _ in
            if case .s3Get(let key) = call, key.hasPrefix(AccountKeys.deletionsPrefix) { reads[key, default: 0] += 1 }
            return .proceed
        }
        let run = try service(f, origin: origin).deletion.runScheduledDeletions(purgeUntil: far, deadline: .none)
        #expect(run == ScheduledRunOutcome(purged: 2, pending: 2), "both first passes done, second passes not yet due")
        for uuid in pending {
            #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0)
        }
        #expect(reads.count == 2_502 && reads.values.allSatisfy { $0 == 1 }, "each record read exactly once")
    }

    /// Out of time for purging, the run stops walking: it does not list the rest. The time is
    /// already out when the run starts (a past deadline), so how fast this machine reads the
    /// first page's records does not matter: with 100 ms left, a fast machine read all three
    /// pages in time and the test failed on CI.
    @Test func aRunOutOfTimeStopsListing() throws {
        let f = AccountFixture()
        _ = try pendingDeletion(f)
        finishedRecords(f, 2_500)
        var lists = 0
        f.backend.intercept = { call, _ in
            if case .s3List = call { lists += 1 }
            return .proceed
        }
        let run = try service(f, origin: 0x00).deletion.runScheduledDeletions(
            purgeUntil: Deadline(epochMilliseconds: 0), deadline: .none)
        #expect(run.purged == 0 && lists == 1)
    }
}

/// Counts calls (the tests run one service call at a time).
private final class Counter: @unchecked Sendable {
    private var count = 0
    func next() -> Int {
        defer { count += 1 }
        return count
    }
}

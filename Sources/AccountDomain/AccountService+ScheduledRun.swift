import AWSClients
import PlatformSupport

/// What one scheduled run did (docs/API.md, "Scheduled run").
public struct ScheduledRunOutcome: Sendable, Equatable {
    /// Deletions whose purge pass (first or second) completed in this run.
    public var purged: Int
    /// Deletions with work left after this run: a purge not finished, or a second pass not yet done.
    public var pending: Int
}

/// The hourly run: finishes every deletion its record says is unfinished (a crash before the
/// commit, identity files or claims left, a purge that did not fit its invocation) and runs the
/// second pass once credentials issued before a deletion have expired. Bounded: the first page of
/// `deletions/` (1,000 records), within the deadline. Anyone may send the scheduled event; all it
/// can cause is this idempotent work.
extension AccountService {
    public func runScheduledDeletions(
        purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> ScheduledRunOutcome {
        var listing = Round()
        let page = listing.list(AccountKeys.deletionsPrefix)
        let uuids = try backend.run(listing, deadline: deadline).value(page).keys.compactMap { key -> String? in
            let name = key.dropFirst(AccountKeys.deletionsPrefix.utf8.count)
            guard name.hasSuffix(".json") else { return nil }
            let uuid = String(name.dropLast(5))
            return AccountKeys.isCanonicalUUID(uuid) ? uuid : nil
        }
        var outcome = ScheduledRunOutcome(purged: 0, pending: 0)
        for start in stride(from: 0, to: uuids.count, by: AccountService.sessionsPerRound) {
            let chunk = Array(uuids[start..<min(start + AccountService.sessionsPerRound, uuids.count)])
            var reads = Round()
            let slots = chunk.map { reads.get(AccountKeys.deletion($0)) }
            let answers = backend.run(reads, deadline: deadline)
            for (uuid, slot) in zip(chunk, slots) {
                guard let object = try answers.value(slot) else { continue }
                let record = try decodeDocument(
                    object.body, key: AccountKeys.deletion(uuid), DeletionRecord.init(json:))
                if record.isDone { continue }
                guard purgeUntil.remainingMilliseconds > AccountService.purgeRoundMilliseconds else {
                    outcome.pending += 1
                    continue
                }
                let progress = try advance(uuid, (record, object.etag), purgeUntil: purgeUntil, deadline: deadline)
                if progress.completedPass { outcome.purged += 1 }
                if progress.pending { outcome.pending += 1 }
            }
        }
        return outcome
    }

    /// What one run did for one deletion: whether a purge pass completed, and whether work is left.
    struct DeletionProgress {
        var completedPass = false
        var pending = true
    }

    /// One deletion's next steps: finishing the first purge, then the second pass once it is due
    /// (right away when it already is).
    func advance(
        _ uuid: String, _ record: (DeletionRecord, String), purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError)
        -> DeletionProgress
    {
        var progress = DeletionProgress()
        let wasComplete = record.0.purgeComplete
        var (current, etag) = try finishDeletion(uuid, record, account: nil, purgeUntil: purgeUntil, deadline: deadline)
        guard current.purgeComplete else { return progress }
        progress.completedPass = !wasComplete
        guard let due = current.secondPassDueAtMs, environment.now() >= due else { return progress }
        let pass = try purge(uuid, until: purgeUntil, deadline: deadline)
        current.objectsDeleted += pass.deleted
        guard pass.complete else {
            _ = try saveDeletion(current, etag: etag, deadline: deadline)
            return progress
        }
        current.purgePasses += 1
        current.secondPassDoneAtMs = environment.now()
        _ = try saveDeletion(current, etag: etag, deadline: deadline)
        return DeletionProgress(completedPass: true, pending: false)
    }
}

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
/// second pass once credentials issued before a deletion have expired. Anyone may send the
/// scheduled event; all it can cause is this idempotent work.
///
/// Finished records stay for the retention period (90 days by default), so `deletions/` can hold
/// far more than one listing page, nearly all of them done. The run therefore walks it a page at a
/// time from a random point, wrapping around to the start, until it has seen every record, its
/// time for purging is gone, or `scheduledRunMaxPages` pages: a pending record is never starved by
/// the done ones listed before it, and one that a run could not reach is as likely as any other to
/// come first in the next.
extension AccountService {
    static let scheduledRunMaxPages = 100

    public func runScheduledDeletions(
        purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> ScheduledRunOutcome {
        let origin = AccountKeys.deletion(environment.uuid())  // names no record
        var outcome = ScheduledRunOutcome(purged: 0, pending: 0)
        var after: String? = origin
        var wrapped = false
        for _ in 0..<AccountService.scheduledRunMaxPages {
            var listing = Round()
            let slot = listing.list(AccountKeys.deletionsPrefix, after: after)
            let page = try backend.run(listing, deadline: deadline).value(slot)
            // Once wrapped, the keys up to the origin are the ones not seen yet.
            let unseen = wrapped ? page.keys.filter { !origin.utf8.lexicographicallyPrecedes($0.utf8) } : page.keys
            try advanceRecords(deletionUUIDs(in: unseen), into: &outcome, purgeUntil: purgeUntil, deadline: deadline)
            guard purgeUntil.remainingMilliseconds > AccountService.purgeRoundMilliseconds else { break }
            if page.isTruncated, unseen.count == page.keys.count, let last = page.keys.last {
                after = last
            } else if !wrapped {
                (wrapped, after) = (true, nil)
            } else {
                break
            }
        }
        return outcome
    }

    private func deletionUUIDs(in keys: [String]) -> [String] {
        keys.compactMap { key -> String? in
            let name = key.dropFirst(AccountKeys.deletionsPrefix.utf8.count)
            guard name.hasSuffix(".json") else { return nil }
            let uuid = String(name.dropLast(5))
            return UUIDText.isCanonical(uuid) ? uuid : nil
        }
    }

    /// Reads one page's records, `sessionsPerRound` at a time, and advances each unfinished one
    /// while there is time to purge (after that, it is only counted as pending).
    private func advanceRecords(
        _ uuids: [String], into outcome: inout ScheduledRunOutcome, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) {
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

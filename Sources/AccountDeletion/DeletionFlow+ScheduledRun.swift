import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport

/// What one scheduled run did (docs/API.md, "Scheduled run").
package struct ScheduledRunOutcome: Sendable, Equatable {
    /// Deletions whose purge pass (first or second) completed in this run.
    package var purged: Int
    /// Deletions with work left after this run: a purge not finished, or a second pass not yet done.
    package var pending: Int
    /// Of the pending ones, those whose work (or record) failed in this run: retried by the next.
    package var failed = 0
    /// Accounts whose deletion Apple's event started and this run dropped instead of committing
    /// (another provider was linked since), unlinking the event's Apple link: audited as the
    /// event's unlink would be.
    package var appleUnlinks: [String] = []

    package init(purged: Int, pending: Int, failed: Int = 0) {
        self.purged = purged
        self.pending = pending
        self.failed = failed
    }
}

/// The hourly run: finishes every deletion its record says is unfinished (a crash before the
/// commit, identity files or claims left, a purge that did not fit its invocation) and runs the
/// second pass once credentials issued before a deletion have expired. Anyone may send the
/// scheduled event; all it can cause is this idempotent work.
///
/// Finished records stay for the retention period (90 days by default), so `deletions/` can hold
/// far more than one listing page, nearly all of them done. The run therefore walks it a page at a
/// time from a random point, wrapping around to the start, until it has seen every record, its
/// time is gone, or `scheduledRunMaxPages` pages: a pending record is never starved by the done
/// ones listed before it, and one that a run could not reach is as likely as any other to come
/// first in the next.
///
/// One deletion that keeps failing never holds back the others (docs/API.md, "Scheduled run"):
/// the records with work to do are collected first, then each gets an equal share of the time
/// left (what one leaves unused goes to the rest), and a record whose work fails, or whose
/// record cannot be read, is counted as pending and tried again by the next run.
extension DeletionFlow {
    package static let scheduledRunMaxPages = 100

    package func runScheduledDeletions(
        purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> ScheduledRunOutcome {
        var outcome = ScheduledRunOutcome(purged: 0, pending: 0)
        // Reading records may take at most half the time: the rest is for their work.
        let readUntil = DeletionFlow.share(of: purgeUntil, among: 2)
        let work = try unfinishedDeletions(into: &outcome, readUntil: readUntil, deadline: deadline)
        for (n, (uuid, record)) in work.enumerated() {
            guard purgeUntil.remainingMilliseconds > AccountStore.purgeRoundMilliseconds else {
                outcome.pending += work.count - n
                break
            }
            let share = DeletionFlow.share(of: purgeUntil, among: work.count - n)
            do throws(AccountError) {
                // Calls may finish a round begun just before the share ends.
                let calls = Deadline.after(
                    milliseconds: share.remainingMilliseconds + AccountStore.purgeRoundMilliseconds)
                let progress = try advance(
                    uuid, record, purgeUntil: share, deadline: DeletionFlow.earlier(calls, deadline))
                if progress.completedPass { outcome.purged += 1 }
                if progress.pending { outcome.pending += 1 }
                if progress.unlinkedApple { outcome.appleUnlinks.append(uuid) }
            } catch {
                outcome.pending += 1
                outcome.failed += 1
            }
        }
        return outcome
    }

    /// The time one of `count` records may take: an equal part of what is left before `until`
    /// (at least one purge round), ending no later than `until`.
    package static func share(of until: Deadline, among count: Int) -> Deadline {
        let left = until.remainingMilliseconds
        guard left < Deadline.none.remainingMilliseconds / 2 else { return until }  // unbounded (tests)
        let part = max(left / Int64(max(1, count)), AccountStore.purgeRoundMilliseconds + 500)
        return earlier(.after(milliseconds: part), until)
    }

    package static func earlier(_ a: Deadline, _ b: Deadline) -> Deadline {
        a.remainingMilliseconds <= b.remainingMilliseconds ? a : b
    }

    /// The records with work left, read a listing page at a time until `readUntil`; a record that
    /// cannot be read or decoded is counted as pending (and failed) and skipped.
    private func unfinishedDeletions(
        into outcome: inout ScheduledRunOutcome, readUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> [(String, (DeletionRecord, String))] {
        let origin = AccountKeys.deletion(store.environment.uuid())  // names no record
        var work: [(String, (DeletionRecord, String))] = []
        var after: String? = origin
        var wrapped = false
        for _ in 0..<DeletionFlow.scheduledRunMaxPages {
            var listing = Round()
            let slot = listing.list(AccountKeys.deletionsPrefix, after: after)
            let page = try store.backend.run(listing, deadline: deadline).value(slot)
            // Once wrapped, the keys up to the origin are the ones not seen yet.
            let unseen = wrapped ? page.keys.filter { !origin.utf8.lexicographicallyPrecedes($0.utf8) } : page.keys
            work += readRecords(deletionUUIDs(in: unseen), into: &outcome, deadline: deadline)
            guard readUntil.remainingMilliseconds > 0 else { break }
            if page.isTruncated, unseen.count == page.keys.count, let last = page.keys.last {
                after = last
            } else if !wrapped {
                (wrapped, after) = (true, nil)
            } else {
                break
            }
        }
        return work
    }

    private func deletionUUIDs(in keys: [String]) -> [String] {
        keys.compactMap { key -> String? in
            let name = key.dropFirst(AccountKeys.deletionsPrefix.utf8.count)
            guard name.hasSuffix(".json") else { return nil }
            let uuid = String(name.dropLast(5))
            return UUIDText.isCanonical(uuid) ? uuid : nil
        }
    }

    /// Reads one page's records, `sessionsPerRound` at a time; returns the unfinished ones.
    private func readRecords(
        _ uuids: [String], into outcome: inout ScheduledRunOutcome, deadline: Deadline
    ) -> [(String, (DeletionRecord, String))] {
        var work: [(String, (DeletionRecord, String))] = []
        for start in stride(from: 0, to: uuids.count, by: AccountStore.sessionsPerRound) {
            let chunk = Array(uuids[start..<min(start + AccountStore.sessionsPerRound, uuids.count)])
            var reads = Round()
            let slots = chunk.map { reads.get(AccountKeys.deletion($0)) }
            let answers = store.backend.run(reads, deadline: deadline)
            for (uuid, slot) in zip(chunk, slots) {
                do throws(AccountError) {
                    guard let object = try answers.value(slot) else { continue }
                    let record = try decodeDocument(
                        object.body, key: AccountKeys.deletion(uuid), DeletionRecord.init(json:))
                    if !record.isDone { work.append((uuid, (record, object.etag))) }
                } catch {
                    outcome.pending += 1
                    outcome.failed += 1
                }
            }
        }
        return work
    }

    /// What one run did for one deletion: whether a purge pass completed, and whether work is left.
    package struct DeletionProgress {
        package var completedPass = false
        package var pending = true
        /// Apple's event started it and another provider was linked since: dropped, and this run
        /// unlinked the event's Apple link (an Apple retry may have done so already).
        package var unlinkedApple = false
    }

    /// One deletion's next steps: finishing the first purge, then the second pass once it is due
    /// (right away when it already is). A deletion Apple's event started whose cause no longer
    /// holds is dropped (`continueDeletion`): nothing is pending for it any more.
    package func advance(
        _ uuid: String, _ record: (DeletionRecord, String), purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError)
        -> DeletionProgress
    {
        var progress = DeletionProgress()
        let wasComplete = record.0.purgeComplete
        let state = try continueDeletion(uuid, record, account: nil, purgeUntil: purgeUntil, deadline: deadline)
        guard case .recorded(var current, let etag) = state else {
            if case .dropped(let unlinked) = state { progress.unlinkedApple = unlinked }
            progress.pending = false
            return progress
        }
        guard current.purgeComplete else { return progress }
        progress.completedPass = !wasComplete
        guard let due = current.secondPassDueAtMs, store.environment.now() >= due else { return progress }
        guard let pass = purgePass(uuid, until: purgeUntil, deadline: deadline) else { return progress }
        current.take(pass)
        guard pass.complete else {
            _ = try saveDeletion(current, etag: etag, deadline: deadline)
            return progress
        }
        current.secondPassDoneAtMs = store.environment.now()
        _ = try saveDeletion(current, etag: etag, deadline: deadline)
        return DeletionProgress(completedPass: true, pending: false)
    }
}

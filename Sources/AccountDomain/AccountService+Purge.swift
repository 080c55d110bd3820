import AWSClients
import PlatformSupport

/// The purge of `users/{uuid}/` in a versioned bucket: incomplete multipart uploads aborted first
/// (an upload finished after its version listing would leave a version behind), then every
/// version and delete marker, listed a page (1,000) at a time and deleted for good in batches of
/// 1,000 by version id; a key that DeleteObjects' XML cannot carry (a user's credentials can
/// write any key under `photos/`; see `XMLText`) is deleted on its own by version id. Each round
/// deletes the page listed by the round before while it lists the next one, so the two overlap
/// on the shared curl multi handle. The version a listing continues after (its marker) is kept
/// until that listing has answered: a listing whose marker version was already deleted finds
/// nothing after it (moto answers an empty, final page; S3 does not document the case), which
/// would end the pass with most of the account left.
extension AccountService {
    /// Below this much time left before `until`, no new round starts (a DeleteObjects of 1,000
    /// takes a second or so on S3).
    static let purgeRoundMilliseconds: Int64 = 1_500
    /// Rounds one pass runs at most (a million versions), so that the loop is bounded.
    static let maxPurgeRounds = 1_000

    /// One pass. `complete` when the listing reached the end and every batch was deleted; a pass
    /// that ran out of time, or where S3 refused some objects, leaves the rest for the next.
    func purge(
        _ uuid: String, until: Deadline, deadline: Deadline
    ) throws(AccountError) -> (complete: Bool, deleted: Int) {
        guard try abortUploads(prefix: AccountKeys.userPrefix(uuid), until: until, deadline: deadline) else {
            return (false, 0)
        }
        return try purge(prefix: AccountKeys.userPrefix(uuid), until: until, deadline: deadline)
    }

    /// Aborts every incomplete multipart upload under `prefix`; true when the listing reached its end.
    func abortUploads(prefix: String, until: Deadline, deadline: Deadline) throws(AccountError) -> Bool {
        var marker: S3Upload?
        for _ in 0..<AccountService.maxPurgeRounds {
            guard until.remainingMilliseconds > AccountService.purgeRoundMilliseconds else { return false }
            var listing = Round()
            let slot = listing.listUploads(prefix, after: marker)
            let page = try backend.run(listing, deadline: deadline).value(slot)
            var aborts = Round()
            let slots = page.uploads.map { aborts.abortUpload($0) }
            let answers = backend.run(aborts, deadline: deadline)
            for slot in slots { _ = try answers.value(slot) }
            guard let next = page.next else { return true }
            marker = next
        }
        return false
    }

    func purge(
        prefix: String, until: Deadline, deadline: Deadline
    ) throws(AccountError) -> (complete: Bool, deleted: Int) {
        var marker: S3VersionListing.Marker?
        var listing = true
        var toDelete: [S3ObjectVersion] = []
        // The previous page's marker version: deleted once the listing that starts after it answered.
        var held: S3ObjectVersion?
        var deleted = 0
        var refused = 0
        for _ in 0..<AccountService.maxPurgeRounds {
            guard listing || !toDelete.isEmpty else { return (refused == 0, deleted) }
            guard until.remainingMilliseconds > AccountService.purgeRoundMilliseconds else { return (false, deleted) }
            var round = Round()
            let list = listing ? round.listVersions(prefix, after: marker) : nil
            let batchable = toDelete.filter { XMLText.canCarry($0.key) && XMLText.canCarry($0.versionID) }
            let batch = batchable.isEmpty ? nil : round.deleteVersions(batchable)
            let singles = toDelete.filter { !(XMLText.canCarry($0.key) && XMLText.canCarry($0.versionID)) }
                .map { round.deleteListedVersion($0) }
            let answers = backend.run(round, deadline: deadline)
            if let batch {
                let outcome = try answers.value(batch)
                deleted += outcome.deleted
                refused += outcome.failed.count
            }
            for single in singles {
                _ = try answers.value(single)
                deleted += 1
            }
            toDelete = []
            if let list {
                let page = try answers.value(list)
                toDelete = page.versions
                if let kept = held { toDelete.append(kept) }  // its listing has answered
                held = nil
                marker = page.next
                listing = page.next != nil
                if let next = page.next,
                    let i = toDelete.firstIndex(where: { $0.key == next.key && $0.versionID == next.versionID })
                {
                    held = toDelete.remove(at: i)
                }
            }
        }
        return (false, deleted)
    }
}

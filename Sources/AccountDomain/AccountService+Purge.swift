import AWSClients
import PlatformSupport

/// The purge of `users/{uuid}/` in a versioned bucket: every version and delete marker, listed
/// a page (1,000) at a time and deleted for good in batches of 1,000 by version id. Each round
/// deletes the page listed by the round before while it lists the next one, so the two overlap
/// on the shared curl multi handle.
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
        try purge(prefix: AccountKeys.userPrefix(uuid), until: until, deadline: deadline)
    }

    func purge(
        prefix: String, until: Deadline, deadline: Deadline
    ) throws(AccountError) -> (complete: Bool, deleted: Int) {
        var marker: S3VersionListing.Marker?
        var listing = true
        var toDelete: [S3ObjectVersion] = []
        var deleted = 0
        var refused = 0
        for _ in 0..<AccountService.maxPurgeRounds {
            guard listing || !toDelete.isEmpty else { return (refused == 0, deleted) }
            guard until.remainingMilliseconds > AccountService.purgeRoundMilliseconds else { return (false, deleted) }
            var round = Round()
            let list = listing ? round.listVersions(prefix, after: marker) : nil
            let batch = toDelete.isEmpty ? nil : round.deleteVersions(toDelete)
            let answers = backend.run(round, deadline: deadline)
            if let batch {
                let outcome = try answers.value(batch)
                deleted += outcome.deleted
                refused += outcome.failed.count
            }
            toDelete = []
            if let list {
                let page = try answers.value(list)
                toDelete = page.versions
                marker = page.next
                listing = page.next != nil
            }
        }
        return (false, deleted)
    }
}

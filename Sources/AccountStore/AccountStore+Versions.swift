import AWSClients
import AccountModel
import PlatformSupport
import StrictJSON

/// Every version, delete marker of keys under a prefix, deleted for good (the engine of the
/// account purge, `DeletionFlow+Purge.swift`, and of `erase`): listed a page (1,000) at a time and
/// deleted in batches of 1,000 by version id; a key that DeleteObjects' XML cannot carry (see
/// `XMLText`) goes on its own. Each round deletes the page listed by the round before while it
/// lists the next one. The version a listing continues after (its marker) is kept until that
/// listing has answered: a listing whose marker version was already deleted finds nothing after
/// it (moto answers an empty, final page; S3 does not document the case). One key that cannot be
/// removed never blocks the others: a batch S3 refuses as a whole for what it holds (not an
/// outage) is sent again one version at a time, so that only the keys S3 refuses stay.
extension AccountStore {
    /// Below this much time left before `until`, no new round starts (a DeleteObjects of 1,000
    /// takes a second or so on S3).
    package static let purgeRoundMilliseconds: Int64 = 1_500
    /// Rounds one pass runs at most (a million versions), so that the loop is bounded.
    package static let maxPurgeRounds = 1_000

    package func purge(prefix: String, until: Deadline, deadline: Deadline) throws(AccountError) -> PurgePass {
        var marker: S3VersionListing.Marker?
        var listing = true
        var toDelete: [S3ObjectVersion] = []
        // Versions of a batch S3 refused as a whole: each goes again on its own.
        var alone: [S3ObjectVersion] = []
        // The previous page's marker version: deleted once the listing that starts after it answered.
        var held: S3ObjectVersion?
        var pass = PurgePass()
        for _ in 0..<AccountStore.maxPurgeRounds {
            guard listing || !toDelete.isEmpty || !alone.isEmpty else {
                pass.complete = pass.failed == 0
                return pass
            }
            guard until.remainingMilliseconds > AccountStore.purgeRoundMilliseconds else { return pass }
            var round = Round()
            let list = listing ? round.listVersions(prefix, after: marker) : nil
            let batchable = toDelete.filter(XMLText.canCarry)
            let batch = batchable.isEmpty ? nil : round.deleteVersions(batchable)
            let singles = (toDelete.filter { !XMLText.canCarry($0) } + alone).map { round.deleteListedVersion($0) }
            let answers = backend.run(round, deadline: deadline)
            alone = []
            if let batch {
                switch answers.results[batch.index] {
                case .success:
                    let outcome = try answers.value(batch)
                    pass.deleted += outcome.deleted
                    pass.failed += outcome.failed.count
                case .failure(let error)
                where error.isRetryable || error.kind == .unavailable || error.kind == .throttled:
                    throw .upstream(error)  // an outage: the next pass goes on
                case .failure:
                    alone = batchable  // refused for what it holds: find the keys S3 refuses
                }
            }
            for single in singles {
                if answers.succeeded(single) { pass.deleted += 1 } else { pass.failed += 1 }
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
        return pass
    }
}

extension XMLText {
    /// Whether DeleteObjects' XML can carry the version's key and id (else it goes on its own).
    package static func canCarry(_ version: S3ObjectVersion) -> Bool {
        canCarry(version.key) && canCarry(version.versionID)
    }
}

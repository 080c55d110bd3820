import AWSClients
import PlatformSupport

/// What one purge pass did (the deletion record keeps `deleted` and `failed`).
struct PurgePass: Sendable, Equatable {
    /// The listings reached their end and every version, delete marker and upload they found is gone.
    var complete = false
    var deleted = 0
    /// Versions, delete markers and uploads the pass found but could not remove. Each was tried on
    /// its own and the pass went on with the others; the next pass (the scheduled run) tries again.
    var failed = 0
}

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
///
/// One key or upload that cannot be removed never blocks the others (issue 23): an abort or a
/// one-by-one delete that fails is counted and the pass goes on; a batch S3 refuses as a whole
/// for what it holds (not an outage) is sent again one version at a time, so that only the keys
/// S3 refuses stay. Only a listing that fails, or an outage, ends a pass early.
extension AccountService {
    /// Below this much time left before `until`, no new round starts (a DeleteObjects of 1,000
    /// takes a second or so on S3).
    static let purgeRoundMilliseconds: Int64 = 1_500
    /// Rounds one pass runs at most (a million versions), so that the loop is bounded.
    static let maxPurgeRounds = 1_000

    /// One pass. `complete` when the listings reached the end and everything found was removed;
    /// a pass that ran out of time, or where S3 refused some objects, leaves the rest for the next.
    func purge(_ uuid: String, until: Deadline, deadline: Deadline) throws(AccountError) -> PurgePass {
        let prefix = AccountKeys.userPrefix(uuid)
        let uploads = try abortUploads(prefix: prefix, until: until, deadline: deadline)
        guard uploads.complete else { return uploads }
        var pass = try purge(prefix: prefix, until: until, deadline: deadline)
        pass.failed += uploads.failed
        pass.complete = pass.complete && uploads.failed == 0
        return pass
    }

    /// Every version of the one key `key` (a session record this invocation wrote and must take
    /// back), gone for good within `deadline`: no round budget, which is for whole accounts.
    func erase(_ key: String, deadline: Deadline) throws(AccountError) {
        _ = try purge(prefix: key, until: .none, deadline: deadline)
    }

    /// Aborts every incomplete multipart upload under `prefix`. `complete`: the listing reached its
    /// end (`failed` uploads are still there).
    func abortUploads(prefix: String, until: Deadline, deadline: Deadline) throws(AccountError) -> PurgePass {
        var marker: S3Upload?
        var pass = PurgePass()
        for _ in 0..<AccountService.maxPurgeRounds {
            guard until.remainingMilliseconds > AccountService.purgeRoundMilliseconds else { return pass }
            var listing = Round()
            let slot = listing.listUploads(prefix, after: marker)
            let page = try backend.run(listing, deadline: deadline).value(slot)
            var aborts = Round()
            let slots = page.uploads.map { aborts.abortUpload($0) }
            let answers = backend.run(aborts, deadline: deadline)
            for slot in slots {
                if answers.succeeded(slot) { pass.deleted += 1 } else { pass.failed += 1 }
            }
            guard let next = page.next else {
                pass.complete = true
                return pass
            }
            marker = next
        }
        return pass
    }

    func purge(prefix: String, until: Deadline, deadline: Deadline) throws(AccountError) -> PurgePass {
        var marker: S3VersionListing.Marker?
        var listing = true
        var toDelete: [S3ObjectVersion] = []
        // Versions of a batch S3 refused as a whole: each goes again on its own.
        var alone: [S3ObjectVersion] = []
        // The previous page's marker version: deleted once the listing that starts after it answered.
        var held: S3ObjectVersion?
        var pass = PurgePass()
        for _ in 0..<AccountService.maxPurgeRounds {
            guard listing || !toDelete.isEmpty || !alone.isEmpty else {
                pass.complete = pass.failed == 0
                return pass
            }
            guard until.remainingMilliseconds > AccountService.purgeRoundMilliseconds else { return pass }
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
    static func canCarry(_ version: S3ObjectVersion) -> Bool {
        canCarry(version.key) && canCarry(version.versionID)
    }
}

import AWSClients
import AccountLinks
import AccountModel
import AccountStore
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
///
/// One key or upload that cannot be removed never blocks the others (issue 23): an abort or a
/// one-by-one delete that fails is counted and the pass goes on; a batch S3 refuses as a whole
/// for what it holds (not an outage) is sent again one version at a time, so that only the keys
/// S3 refuses stay. Only a listing that fails, or an outage, ends a pass early.
extension DeletionFlow {

    /// One pass. `complete` when the listings reached the end and everything found was removed;
    /// a pass that ran out of time, or where S3 refused some objects, leaves the rest for the next.
    package func purge(_ uuid: String, until: Deadline, deadline: Deadline) throws(AccountError) -> PurgePass {
        let prefix = AccountKeys.userPrefix(uuid)
        let uploads = try abortUploads(prefix: prefix, until: until, deadline: deadline)
        guard uploads.complete else { return uploads }
        var pass = try store.purge(prefix: prefix, until: until, deadline: deadline)
        pass.failed += uploads.failed
        pass.complete = pass.complete && uploads.failed == 0
        return pass
    }

    /// Aborts every incomplete multipart upload under `prefix`. `complete`: the listing reached its
    /// end (`failed` uploads are still there).
    package func abortUploads(prefix: String, until: Deadline, deadline: Deadline) throws(AccountError) -> PurgePass {
        var marker: S3Upload?
        var pass = PurgePass()
        for _ in 0..<AccountStore.maxPurgeRounds {
            guard until.remainingMilliseconds > AccountStore.purgeRoundMilliseconds else { return pass }
            var listing = Round()
            let slot = listing.listUploads(prefix, after: marker)
            let page = try store.backend.run(listing, deadline: deadline).value(slot)
            var aborts = Round()
            let slots = page.uploads.map { aborts.abortUpload($0) }
            let answers = store.backend.run(aborts, deadline: deadline)
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

}

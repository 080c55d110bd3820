import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport

/// Where a deletion stands after `continueDeletion`.
package enum DeletionState {
    /// Going on, or done: its record as stored.
    case recorded(DeletionRecord, etag: String)
    /// Apple's event started it, but another provider was listed when it would have committed:
    /// the record is gone, and the event's Apple link was unlinked (`unlinkedApple`) unless it
    /// already was.
    case dropped(unlinkedApple: Bool)
}

/// What the commit step of a deletion came to.
package enum CommitStep {
    case committed(Account)
    case dropped(unlinkedApple: Bool)
}

/// A deletion whose cause no longer holds (contract v4, "Notifications"): Apple's `account-delete`
/// of an account that has had another provider linked since. What is left of the event is done
/// instead: its Apple link unlinked, as when the event finds another provider at once; then the
/// record is dropped, exactly as read (If-Match), so that a request that took the record over
/// meanwhile stands.
extension DeletionFlow {
    /// The commit, or, when the cause no longer holds, the drop. The other provider may go again
    /// while Apple's link is being unlinked (the user unlinked it): Apple is then the last provider
    /// once more, and the deletion commits after all, on the document as it is now.
    package func commitOrDrop(
        _ record: (DeletionRecord, String), account: Account, deadline: Deadline
    ) throws(AccountError) -> CommitStep {
        var account = account
        for _ in 0..<AccountStore.maxConditionalAttempts {
            let (latest, committed) = try commitDeletion(account, cause: record.0.cause, deadline: deadline)
            if committed { return .committed(latest) }
            if let unlinked = try dropDeletion(record, account: latest, deadline: deadline) {
                return .dropped(unlinkedApple: unlinked)
            }
            let docs = try store.readAccount(record.0.serviceUserID, deadline: deadline)
            guard
                let fresh = try store.account(
                    uuid: record.0.serviceUserID, profile: docs.profile, providers: docs.providers)
            else { throw .conflict("the account's documents disappeared while its deletion was decided") }
            account = fresh
        }
        throw .conflict("the account's providers kept changing while its deletion was decided")
    }

    /// Unlinks the record's Apple link when the account still lists it beside another provider,
    /// then deletes the record. True when this unlinked Apple; nil when the other provider went
    /// meanwhile (Apple is the last one again) or the deletion committed meanwhile: nothing was
    /// changed, and the commit step decides again.
    package func dropDeletion(
        _ record: (DeletionRecord, String), account: Account, deadline: Deadline
    ) throws(AccountError) -> Bool? {
        guard case .appleAccountDelete(let linkID) = record.0.cause else {
            throw .internalError("only a deletion Apple's event started is dropped")
        }
        var unlinked = false
        if let link = account.providers.providers.first(where: {
            $0.type == .apple && (linkID == nil || $0.linkID == linkID)
        }) {
            do throws(AccountError) {
                _ = try links.removeLink(
                    account, provider: .apple, subject: link.id, refusesDisabled: false, deadline: deadline)
                unlinked = true
            } catch {
                switch error {
                case .providerNotLinked: break  // unlinked meanwhile
                // Apple is the last provider again, or another run of this deletion (the
                // scheduled run, Apple's retry) committed it meanwhile: the record stays, and
                // the caller decides again on the document as it is now (simulation seed 18558:
                // dropping it here left a committed deletion without its record).
                case .lastProvider, .sessionInvalid: return nil
                default: throw error
                }
            }
        }
        let key = AccountKeys.deletion(record.0.serviceUserID)
        if case .preconditionFailed = try store.backend.delete(key, .ifMatch(record.1), deadline: deadline) {
            throw .conflict("the deletion record changed while it was dropped")
        }
        return unlinked
    }

    /// After Apple's event unlinked its Apple link beside another provider: a record an earlier
    /// delivery of the event left uncommitted (it failed after writing it) can never commit any
    /// more, and goes now instead of at the scheduled run. A request's record stays, and so does
    /// one whose deletion committed in providers.json (the commit point) before the record says
    /// so: another delivery of the event found Apple the last provider and is between its commit
    /// and its record's update (simulation seed 7702079: dropped, the account stayed deleted and
    /// was never purged).
    package func dropUncommittedAppleDeletion(_ uuid: String, deadline: Deadline) throws(AccountError) {
        guard let (record, etag) = try store.loadDeletion(uuid, deadline: deadline), record.committedAtMs == nil,
            !record.cause.isRequested
        else { return }
        let key = AccountKeys.providers(uuid)
        if let object = try store.backend.get(key, deadline: deadline),
            try decodeDocument(object.body, key: key, ProvidersDocument.init(json:)).isDeleted
        {
            return
        }
        // 412: it changed meanwhile (taken over by a request, or committed), and stands.
        _ = try store.backend.delete(AccountKeys.deletion(uuid), .ifMatch(etag), deadline: deadline)
    }
}

import AWSClients
import AccountModel
import AccountStore
import PlatformSupport
import TokenVerification

/// Removing a provider from an account: the user's unlink, and Apple's `account-delete` event.
extension LinkFlow {
    /// Retires the provider's link in providers.json (atomically with the last-provider check:
    /// the commit point; every session of that link stops working), cancels a link of it under
    /// way, then deletes the identity files of the provider's retired links that still map here
    /// (this one's, and any an earlier unlink left behind), with their app-transfer files
    /// (contract v4), each exactly as read. `subject`, when
    /// given (Apple's `account-delete` names the Apple ID), retires only that identity: a link of
    /// another identity of the provider made since is left alone (`providerNotLinked`).
    /// `refusesDisabled`: the user's unlink, refused (ACCOUNT_DISABLED) on the document it would
    /// replace; Apple's events are processed on a disabled account too.
    package func removeLink(
        _ account: Account, provider: IdentityProvider, subject: String? = nil, refusesDisabled: Bool,
        deadline: Deadline
    ) throws(AccountError) -> Account {
        let named: (IdentityProvider, String) -> Bool = { type, id in
            type == provider && (subject == nil || subject == id)
        }
        let uuid = account.serviceUserID
        let now = store.environment.now()
        var committed = false
        var account = try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            committed = false
            guard !doc.isDeleted else { throw .sessionInvalid(reason: "the account was deleted") }
            if refusesDisabled { try doc.refuseIfDisabled() }
            if let i = doc.providers.firstIndex(where: { named($0.type, $0.id) }) {
                guard doc.providers.count > 1 else { throw .lastProvider }
                let link = doc.providers.remove(at: i)
                // Its app-transfer files sign nothing in once it is gone (contract v4): kept on the
                // retired entry, so that they are removed below, by a retry, or by the deletion.
                doc.retire(
                    provider, id: link.id, linkID: link.linkID, nowMs: now, transfers: link.transfers,
                    formerIDs: link.formerIDs)
                doc.normalizePrimary()
                committed = true
                return true
            }
            if let i = doc.pending.firstIndex(where: { named($0.type, $0.id) }) {
                // A link under way, or one that stopped after its file: cancel it.
                let claim = doc.pending.remove(at: i)
                doc.retire(provider, id: claim.id, linkID: claim.linkID, nowMs: now)
                committed = true
                return true
            }
            // Nothing listed: an earlier unlink may have committed and failed before its clean-up.
            guard doc.retired.contains(where: { named($0.type, $0.id) }) else { throw .providerNotLinked }
            return false
        }
        let retired = account.providers.retired.filter { $0.type == provider }
        var reads = Round()
        let slots = retired.map { reads.get(AccountKeys.identity(provider, $0.id)) }
        // The retired links' app-transfer files, and the old identity files of their re-keys not
        // cleaned up (contract v4), when they still name this account (and link).
        // And the identity files of their former ids (contract v5: a re-key keeps them).
        let transferFiles =
            retired.flatMap { link in
                link.transfers.flatMap { t in
                    [(AccountKeys.appleTransfer(t.sub), String?.none)]
                        + (t.rekeyedFrom.map { [(AccountKeys.identity(.apple, $0), link.linkID)] } ?? [])
                }
            }
            + retired.flatMap { link in link.formerIDs.map { (AccountKeys.identity(link.type, $0), link.linkID) } }
        let transferSlots = transferFiles.map { reads.get($0.0) }
        let answers = store.backend.run(reads, deadline: deadline)
        var deletes = Round()
        var deleteSlots: [Round.Slot<S3DeleteOutcome>] = []
        for (link, slot) in zip(retired, slots) {
            let key = AccountKeys.identity(provider, link.id)
            guard let file = try store.mapping(answers.value(slot), key: key), file.uuid == uuid,
                file.linkID == link.linkID
            else { continue }
            deleteSlots.append(deletes.delete(key, store.identityDelete(file)))
        }
        for ((key, linkID), slot) in zip(transferFiles, transferSlots) {
            guard let file = try store.mapping(answers.value(slot), key: key), file.uuid == uuid,
                linkID == nil || file.linkID == linkID
            else { continue }
            deleteSlots.append(deletes.delete(key, store.identityDelete(file)))
        }
        if !committed && deleteSlots.isEmpty { throw .providerNotLinked }
        let primary = account.providers.primaryProvider
        if account.profile.primaryProvider != primary {
            account = try store.updateProfile(account, deadline: deadline) { (p: inout Profile) -> Bool in
                guard p.primaryProvider != primary else { return false }
                p.primaryProvider = primary
                return true
            }
        }
        let deleted = store.backend.run(deletes, deadline: deadline)
        for slot in deleteSlots { _ = try deleted.value(slot) }
        return account
    }
}

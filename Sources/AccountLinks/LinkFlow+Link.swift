import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport
import TokenVerification

/// Link and unlink (docs/API.md, auth-link). See `ProvidersDocument` for the pending and retired
/// entries that keep identity files and providers.json in agreement.
extension LinkFlow {
    /// Link: claim the provider slot (pending) → identity file (commit) → activate.
    package func link(token: String, identity: VerifiedIdentity, deadline: Deadline) throws(AccountError) -> LinkOutcome
    {
        let key = AccountKeys.identity(identity.provider, identity.subject)
        let google = identity.provider == .google
        let auth = try sessions.authenticate(
            token, recent: true, alsoRead: google ? [key, suspensions.suspensionKey(identity)] : [key],
            deadline: deadline)
        let uuid = auth.token.serviceUserID
        var account = auth.account
        if google {
            // Refused before anything is written; a lift not yet applied to this account's entry
            // (an event that stopped between its writes) is applied now.
            let record = try suspensions.suspension(auth.extra[1], identity.provider, identity.subject)
            if record?.suspended == true { throw .identitySuspended }
            account = try suspensions.enforce(
                record, on: account, provider: identity.provider, id: identity.subject, deadline: deadline)
        }
        if let existing = try store.mapping(auth.extra[0], key: key) {
            guard existing.uuid == uuid else { throw .providerAlreadyLinked }
            if account.providers.state(of: identity.provider, id: identity.subject, linkID: existing.linkID) == .active
            {
                return LinkOutcome(status: .alreadyLinked, account: account)
            }
            // providers.json was read in the same round as the file, so it may be older than the
            // file: only a copy read after the file can tell a pending link from a stale one.
            let docs = try store.readAccount(uuid, deadline: deadline)
            guard let fresh = try store.account(uuid: uuid, profile: docs.profile, providers: docs.providers) else {
                throw .sessionInvalid(reason: "the account is incomplete; sign in again to complete it")
            }
            account = fresh
            switch account.providers.state(
                of: identity.provider, id: identity.subject, linkID: existing.linkID, transferSub: existing.transferSub)
            {
            case .active:
                return LinkOutcome(status: .alreadyLinked, account: account)
            case .rekeying:
                // This account's app-transfer re-key to this very identity stopped after its file.
                if let moved = try finishRekey(existing, identity, deadline: deadline) {
                    return LinkOutcome(status: .alreadyLinked, account: moved)
                }
                _ = try store.backend.delete(key, store.identityDelete(existing), deadline: deadline)
            case .pending, .legacyUnlisted:
                // An earlier attempt (this client's, or a concurrent one) got as far as the file.
                if let completed = try completeLink(account, existing, identity, deadline: deadline) {
                    let checked = try suspensions.enforceSuspension(
                        completed, provider: identity.provider, id: identity.subject, deadline: deadline)
                    return LinkOutcome(status: .linked, account: checked)
                }
                _ = try store.backend.delete(key, store.identityDelete(existing), deadline: deadline)
            case .stale:
                _ = try store.backend.delete(key, store.identityDelete(existing), deadline: deadline)
            }
        }

        // 1. Claim the provider's slot. A concurrent link of the same identity shares the claim.
        let now = store.environment.now()
        var linkID = store.environment.hexID()
        var alreadyListed = false
        account = try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            alreadyListed = false
            guard !doc.isDeleted else { throw .sessionInvalid(reason: "the account was deleted") }
            try doc.refuseIfDisabled()
            if doc.index(of: identity.provider, id: identity.subject) != nil {
                alreadyListed = true
                return false
            }
            if doc.active(identity.provider) != nil { throw .providerAlreadyLinked }
            if let claim = doc.livePending(identity.provider, nowMs: now) {
                guard claim.id == identity.subject else { throw .providerAlreadyLinked }
                linkID = claim.linkID
                return false
            }
            doc.pending.removeAll { $0.type == identity.provider }  // abandoned claims
            doc.pending.append(PendingLink(type: identity.provider, id: identity.subject, linkID: linkID, sinceMs: now))
            return true
        }
        if alreadyListed { return LinkOutcome(status: .alreadyLinked, account: account) }

        // 2. The identity file: the commit point.
        switch try store.backend.put(store.identityPut(key, uuid: uuid, linkID: linkID), deadline: deadline) {
        case .stored: break
        case .preconditionFailed:
            let winner = try store.mapping(store.backend.get(key, deadline: deadline), key: key)
            guard let winner, winner.uuid == uuid, winner.linkID == linkID else {
                // Another account took the identity (or it changed under us): give the slot back.
                _ = try? cancelClaim(account, identity, linkID: linkID, deadline: deadline)
                throw winner.map { $0.uuid == uuid } == false
                    ? .providerAlreadyLinked : .conflict("the identity file changed during link")
            }
        }

        // 3. Activate.
        let m = IdentityMapping(uuid: uuid, linkID: linkID, object: nil)
        let completed: Account?
        do throws(AccountError) {
            completed = try completeLink(account, m, identity, deadline: deadline)
        } catch {
            if case .accountDisabled = error {
                try withdrawLink(account, key: key, linkID: linkID, deadline: deadline)
            } else {
                try removeFileOfDeletedAccount(key, uuid: uuid, linkID: linkID, deadline: deadline)
            }
            throw error
        }
        guard let linked = completed else {
            // The account was deleted since the claim (a deletion committed in between): the
            // file goes and the answer is SESSION_INVALID, as docs/API.md says (issue 23).
            try removeFileOfDeletedAccount(key, uuid: uuid, linkID: linkID, deadline: deadline)
            // Else the claim was abandoned and taken over meanwhile (this link outlived the
            // claim's lifetime): remove the file this link wrote.
            try deleteIdentityFile(key, ifItNames: uuid, linkID: linkID, deadline: deadline)
            throw .conflict("the link took too long; retry")
        }
        // Google's event may have suspended the identity while this link committed: the entry
        // takes the record's state (the link stays, suspended) and the answer says so.
        let checked = try suspensions.enforceSuspension(
            linked, provider: identity.provider, id: identity.subject, deadline: deadline)
        return LinkOutcome(status: .linked, account: checked)
    }

    /// After activation failed: when the account is gone (a deletion committed after this link's
    /// claim and its purge took providers.json) or deleted, the file this link wrote names a
    /// deleted account and nothing else would remove it; remove it and say the account was
    /// deleted. Otherwise the caller's error stands (the claim stays for a retry to finish).
    package func removeFileOfDeletedAccount(
        _ key: String, uuid: String, linkID: String, deadline: Deadline
    ) throws(AccountError) {
        guard try isGoneOrDeleted(uuid, deadline: deadline) else { return }
        try deleteIdentityFile(key, ifItNames: uuid, linkID: linkID, deadline: deadline)
        throw .sessionInvalid(reason: "the account was deleted")
    }

    /// Deletes the identity file at `key` when it is this link's (its account and link id), by
    /// the version read.
    package func deleteIdentityFile(
        _ key: String, ifItNames uuid: String, linkID: String, deadline: Deadline
    ) throws(AccountError) {
        if let mine = try store.mapping(store.backend.get(key, deadline: deadline), key: key), mine.uuid == uuid,
            mine.linkID == linkID
        {
            _ = try store.backend.delete(key, store.identityDelete(mine), deadline: deadline)
        }
    }

    /// Whether account `uuid`'s providers.json is gone (a committed deletion's purge took it) or
    /// says the account was deleted, read now.
    package func isGoneOrDeleted(_ uuid: String, deadline: Deadline) throws(AccountError) -> Bool {
        let providersKey = AccountKeys.providers(uuid)
        guard let object = try store.backend.get(providersKey, deadline: deadline) else { return true }
        return try decodeDocument(object.body, key: providersKey, ProvidersDocument.init(json:)).isDeleted
    }

    /// A link refused at its activation (the account was disabled since its claim) takes back what
    /// it wrote: its claim is retired, then its identity file deleted by the version read. Retired,
    /// not removed: a concurrent link of the same identity shares the claim and the file (one link
    /// id), and a retired link id is one it recognises as over (its activation finds it stale and
    /// deletes the file it may have written again), while a deletion still finds the file through
    /// it. A sharer that activated meanwhile (after an enable) keeps both.
    package func withdrawLink(_ account: Account, key: String, linkID: String, deadline: Deadline) throws(AccountError)
    {
        let now = store.environment.now()
        var listed = false
        _ = try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            listed = doc.providers.contains { $0.linkID == linkID }
            guard let i = doc.pending.firstIndex(where: { $0.linkID == linkID }) else { return false }
            let claim = doc.pending.remove(at: i)
            doc.retire(claim.type, id: claim.id, linkID: claim.linkID, nowMs: now)
            return true
        }
        if !listed {
            try deleteIdentityFile(key, ifItNames: account.serviceUserID, linkID: linkID, deadline: deadline)
        }
    }

    /// Gives back a claim whose identity file was never written by this link.
    package func cancelClaim(
        _ account: Account, _ identity: VerifiedIdentity, linkID: String, deadline: Deadline
    ) throws(AccountError) -> Account {
        try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard doc.pending.contains(where: { $0.linkID == linkID }) else { return false }
            doc.pending.removeAll { $0.linkID == linkID }
            return true
        }
    }

    /// Unlink: providers.json first (retire the entry; the commit point), then that identity file,
    /// and any leftover of an earlier unlink of the same provider.
    package func unlink(
        token: String, provider: IdentityProvider, deadline: Deadline
    ) throws(AccountError) -> LinkOutcome {
        let auth = try sessions.authenticate(token, recent: true, deadline: deadline)
        return LinkOutcome(
            status: .unlinked,
            account: try removeLink(auth.account, provider: provider, refusesDisabled: true, deadline: deadline))
    }
}

import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import TokenVerification

/// What an app transfer's re-key did (contract v4, "An app moved to another Apple developer team").
package enum RekeyOutcome {
    /// The account's Apple link now has the new `sub` (moved now, or earlier by someone else):
    /// the account as written, and the new identity file's mapping.
    case rekeyed(Account, IdentityMapping)
    /// The transfer does not apply (the account is missing or deleted, its Apple link was unlinked
    /// or re-keyed to another `sub`, or was never prepared for it): why, in a few words.
    case ignored(String)
    /// The new `sub`'s identity file names another account (or another link): that file decides.
    case subTaken
}

/// The re-key: an account's Apple link moves from the old team's `sub` to the recipient team's,
/// in the contract's order, each step idempotent so that whoever comes next (another device's
/// sign-in, the operator's `complete`, `check --repair`) finishes it:
/// 1. the new identity file, create-only, with the link id and the `transfer_sub` as metadata
///    (until step 2 it is `LinkState.rekeying`, never stale);
/// 2. providers.json (If-Match; the commit point): the link takes the new id and email and keeps
///    its link id and the former id, so sessions signed in before follow it; the transfer is
///    marked re-keyed;
/// 3. the clean-up: the link's transfer files are removed (each exactly as read, only when it
///    names this account), then the transfers leave providers.json. The old identity file stays
///    (contract v5): a token that still carries the former `sub` signs in to the account.
/// The rule is re-checked where it commits (step 2's conditional write): a link unlinked, deleted
/// (or purged, providers.json gone) or re-keyed meanwhile ends the re-key, and the file step 1
/// created goes again.
extension LinkFlow {
    /// Re-keys the Apple link of account `uuid` prepared for `transferSub` to `newSub`. `file`:
    /// the new identity file when the caller has read it (its `LinkState.rekeying`); the caller
    /// then removes it if the re-key does not apply. `refuseDisabled`: a sign-in's re-key answers
    /// ACCOUNT_DISABLED and changes nothing; the operator's `complete` and `check` re-key anyway
    /// (bookkeeping Apple's transfer forces, not the account's own action).
    package func rekeyApple(
        uuid: String, transferSub: String, newSub: String, email: String?, refuseDisabled: Bool,
        file: IdentityMapping? = nil, deadline: Deadline
    ) throws(AccountError) -> RekeyOutcome {
        guard AccountKeys.isValidProviderID(newSub), AccountKeys.isValidProviderID(transferSub) else {
            throw .internalError("a transfer identifier failed validation")
        }
        let docs = try store.readAccount(uuid, deadline: deadline)
        guard let account = try store.account(uuid: uuid, profile: docs.profile, providers: docs.providers) else {
            return .ignored("the account is missing or not complete")
        }
        guard !account.providers.isDeleted else { return .ignored("the account was deleted") }
        if refuseDisabled && account.providers.isActiveButDisabled { throw .accountDisabled }
        guard let (i, j) = account.providers.link(preparedFor: transferSub) else {
            return .ignored("no Apple link of the account is prepared for this transfer")
        }
        let link = account.providers.providers[i]
        if link.id != newSub && link.transfers[j].rekeyedFrom != nil {
            return .ignored("the Apple link was re-keyed to another identity")
        }

        // 1. The new identity file.
        let key = AccountKeys.identity(.apple, newSub)
        var created: IdentityMapping?
        // The new file as this re-key knows it (its ETag or version), so that a later discard
        // removes exactly it and never another account's file written since.
        var known = file
        if file == nil || file?.uuid != uuid || file?.linkID != link.linkID {
            let put = store.identityPut(key, uuid: uuid, linkID: link.linkID, transferSub: transferSub)
            switch try store.backend.put(put, deadline: deadline) {
            case .stored(let etag):
                created = IdentityMapping(
                    uuid: uuid, linkID: link.linkID, transferSub: transferSub,
                    object: S3Object(body: put.body, etag: etag, contentType: put.contentType))
                known = created
            case .preconditionFailed:
                // Another device's re-key, or this write's own lost answer: the same account and link.
                guard let there = try store.mapping(store.backend.get(key, deadline: deadline), key: key),
                    there.uuid == uuid,
                    there.linkID == link.linkID
                else { return .subTaken }
                known = there
            }
        }

        // 2. The commit.
        let now = store.environment.now()
        var applies = true
        let moved: Account
        do throws(AccountError) {
            moved = try store.updateProviders(account, deadline: deadline) {
                (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                applies = !doc.isDeleted
                guard applies else { return false }
                if refuseDisabled && doc.isActiveButDisabled { throw .accountDisabled }
                guard
                    let changed = doc.rekey(
                        linkID: link.linkID, transferSub: transferSub, newSub: newSub, email: email, nowMs: now)
                else {
                    applies = false
                    return false
                }
                return changed
            }
        } catch {
            if case .accountDisabled = error, let created { try removeRekeyFile(created, key: key, deadline: deadline) }
            // A deletion committed meanwhile and its purge took providers.json: it never saw the
            // new `sub`, so the file this re-key wrote would name a deleted account and nothing
            // else would remove it (simulation seed 1622). Taken back, as a link takes back its own.
            if case .conflict = error, let mine = created ?? (file == nil ? known : nil),
                try isGoneOrDeleted(uuid, deadline: deadline)
            {
                try removeRekeyFile(mine, key: key, deadline: deadline)
                return .ignored("the account was deleted")
            }
            throw error
        }
        guard applies else {
            if let created { try removeRekeyFile(created, key: key, deadline: deadline) }
            return .ignored("the Apple link changed before the re-key committed")
        }

        // 3. The clean-up.
        let cleaned = try finishRekeys(moved, deadline: deadline)
        guard let known else { throw .internalError("the re-key lost track of its identity file") }
        return .rekeyed(cleaned, known)
    }

    /// Removes a new identity file this re-key created and that does not apply (exactly that file).
    private func removeRekeyFile(_ file: IdentityMapping, key: String, deadline: Deadline) throws(AccountError) {
        _ = try store.backend.delete(key, store.identityDelete(file), deadline: deadline)
    }

    /// The clean-up of every re-key of the account that committed and is not cleaned up yet: the
    /// profile's email follows the link's when it was the old relay address; the old identity
    /// files (naming this account and link) and the links' transfer files (naming this account)
    /// are removed, each by the version read; then those transfers leave providers.json.
    package func finishRekeys(_ account: Account, deadline: Deadline) throws(AccountError) -> Account {
        let links = account.providers.rekeysToClean
        guard !links.isEmpty else { return account }
        let uuid = account.serviceUserID
        var account = account
        for link in links {
            for t in link.transfers where t.formerEmail != nil && t.formerEmail == account.profile.email {
                guard let email = link.email, email != account.profile.email else { continue }
                account = try store.updateProfile(account, deadline: deadline) { (p: inout Profile) -> Bool in
                    guard p.email == t.formerEmail else { return false }
                    p.email = email
                    return true
                }
            }
        }
        // The old identity file stays (contract v5): it names the account under the link's id, and
        // a token that still carries the former `sub` signs in with it (`LinkState.active`).
        var keys: [(key: String, linkID: String??)] = []
        for link in links {
            for t in link.transfers { keys.append((AccountKeys.appleTransfer(t.sub), .none)) }
        }
        var reads = Round()
        let slots = keys.map { reads.get($0.key) }
        let answers = store.backend.run(reads, deadline: deadline)
        var deletes = Round()
        var deleteSlots: [Round.Slot<S3DeleteOutcome>] = []
        for (entry, slot) in zip(keys, slots) {
            guard let file = try store.mapping(answers.value(slot), key: entry.key), file.uuid == uuid else { continue }
            if let linkID = entry.linkID, file.linkID != linkID { continue }  // another link's file: not ours
            deleteSlots.append(deletes.delete(entry.key, store.identityDelete(file)))
        }
        let deleted = store.backend.run(deletes, deadline: deadline)
        for slot in deleteSlots { _ = try deleted.value(slot) }
        let handled = Set(links.flatMap { $0.transfers.map(\.sub) })
        return try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard !doc.isDeleted else { return false }
            var changed = false
            for i in doc.providers.indices where doc.providers[i].transfers.contains(where: { $0.rekeyedFrom != nil }) {
                doc.providers[i].transfers.removeAll { handled.contains($0.sub) }
                changed = true
            }
            return changed
        }
    }

    /// Finishes the re-key that the identity file `m` (`LinkState.rekeying`) was written for, with
    /// the signing-in token's email. Nil when it no longer applies (the caller discards the file).
    package func finishRekey(
        _ m: IdentityMapping, _ identity: VerifiedIdentity, deadline: Deadline
    ) throws(AccountError) -> Account? {
        guard let transferSub = m.transferSub else { return nil }
        switch try rekeyApple(
            uuid: m.uuid, transferSub: transferSub, newSub: identity.subject, email: identity.email,
            refuseDisabled: true, file: m, deadline: deadline)
        {
        case .rekeyed(let account, _): return account
        case .ignored, .subTaken: return nil
        }
    }

    /// Whether the re-key the identity file `m` was written for has committed and been cleaned up
    /// (by another sign-in or `complete`): the account lists `identity` under the file's link.
    package func isRekeyed(
        _ m: IdentityMapping, _ identity: VerifiedIdentity, deadline: Deadline
    ) throws(AccountError) -> Bool {
        let key = AccountKeys.providers(m.uuid)
        guard let object = try store.backend.get(key, deadline: deadline) else { return false }
        let doc = try decodeDocument(object.body, key: key, ProvidersDocument.init(json:))
        return !doc.isDeleted
            && doc.state(of: identity.provider, id: identity.subject, linkID: m.linkID, transferSub: m.transferSub)
                == .active
    }

    /// A sign-in that meets a re-key committed but not cleaned up finishes the clean-up; a failure
    /// there leaves it for the next one and does not fail the sign-in.
    package func finishRekeysQuietly(_ account: Account, deadline: Deadline) -> Account {
        guard !account.providers.rekeysToClean.isEmpty else { return account }
        do throws(AccountError) { return try finishRekeys(account, deadline: deadline) } catch { return account }
    }
}

import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import TokenVerification

/// Completing what a sign-up or a link left half-done: the account's missing documents, a
/// pending link's listing.
extension LinkFlow {
    package func newLink(_ identity: VerifiedIdentity, linkID: String?, nowMs: Int64, primary: Bool) -> ProviderLink {
        let now = ISO8601.format(milliseconds: nowMs)
        return ProviderLink(
            type: identity.provider, id: identity.subject, email: identity.email, displayName: identity.name,
            linkedAt: now, lastUsed: now, isPrimary: primary, linkID: linkID)
    }

    /// Writes whatever of a half-made account is missing (markers, profile, providers), each
    /// only-if-absent, and returns the account as stored.
    package func complete(
        _ m: IdentityMapping, _ identity: VerifiedIdentity, fullName: String?, profile: S3Object?, providers: S3Object?,
        deadline: Deadline
    ) throws(AccountError) -> Account {
        let now = store.environment.now()
        var round = Round()
        // Only-if-absent like the documents: a repair that met a live account writes nothing.
        var slots = AccountKeys.markers(m.uuid).map { round.put(store.marker($0, .ifNoneMatch)) }
        if profile == nil {
            let p = Profile.new(
                uuid: m.uuid, displayName: Profile.displayName(identity, fullName), email: identity.email,
                provider: identity.provider, nowMs: now)
            slots.append(round.put(store.jsonPut(AccountKeys.profile(m.uuid), p.json, .ifNoneMatch)))
        }
        if providers == nil {
            let v = ProvidersDocument(
                primaryProvider: identity.provider,
                providers: [newLink(identity, linkID: m.linkID, nowMs: now, primary: true)])
            slots.append(round.put(store.jsonPut(AccountKeys.providers(m.uuid), v.json, .ifNoneMatch)))
        }
        let answers = store.backend.run(round, deadline: deadline)
        for slot in slots { _ = try answers.value(slot) }  // 412: someone else completed it
        let docs = try store.readAccount(m.uuid, deadline: deadline)
        guard let account = try store.account(uuid: m.uuid, profile: docs.profile, providers: docs.providers) else {
            throw .conflict("the account's documents disappeared while completing it")
        }
        return account
    }

    /// Lists an identity whose file names a pending link (its link stopped, or is still under way,
    /// between the file and the listing) or predates link ids. Nil when it turns out stale;
    /// ACCOUNT_DISABLED, with nothing written, when the document it would list it in is disabled.
    package func completeLink(
        _ account: Account, _ m: IdentityMapping, _ identity: VerifiedIdentity, deadline: Deadline
    ) throws(AccountError) -> Account? {
        let now = store.environment.now()
        var stale = false
        let updated = try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            stale = doc.isDeleted
            if stale { return false }
            switch doc.state(of: identity.provider, id: identity.subject, linkID: m.linkID) {
            case .active: return false
            case .pending:
                try doc.refuseIfDisabled()
                guard doc.activate(linkID: m.linkID!, nowMs: now, email: identity.email, displayName: identity.name)
                else {
                    stale = true
                    return false
                }
                return true
            case .legacyUnlisted:
                try doc.refuseIfDisabled()
                doc.providers.append(self.newLink(identity, linkID: nil, nowMs: now, primary: false))
                doc.normalizePrimary()
                return true
            case .stale, .rekeying:
                stale = true
                return false
            }
        }
        return stale ? nil : updated
    }

    /// Whether the account's deletion committed (its record says so). A record that was only
    /// asked for (the delete stopped before its commit) leaves the account live until the
    /// scheduled run commits it: a sign-in that read the documents missing read them before they
    /// were complete, and must not drop the identity file of an account that still lists it
    /// (the simulation found this: an uncommitted record, a stale read, a new account for the
    /// same identity while the old one still refreshed).
    package func isCommittedDeletion(_ uuid: String, deadline: Deadline) throws(AccountError) -> Bool {
        try store.loadDeletion(uuid, deadline: deadline)?.0.committedAtMs != nil
    }
}

import AWSClients
import PlatformSupport
import TokenVerification

/// `check --repair`: each finding goes through the path a function takes when it meets the same
/// break, never a new one: sign-in's completion of a half-made account and of an unlisted link,
/// its discard of a stale identity file, the link's identity-file write and claim cancel, the
/// claim's release of a deleted owner's claim, the scheduled run's advance of a deletion.
extension AccountService {
    func repair(_ finding: StoreFinding, _ s: StoreSnapshot, deadline: Deadline) -> StoreFinding {
        var f = finding
        do throws(AccountError) {
            f.note = try repairNote(finding, s, deadline: deadline)
            f.repaired = f.note == nil
        } catch {
            f.repaired = false
            f.note = "repair failed: \(error)"
        }
        return f
    }

    /// Nil when repaired, else why it was left for a person.
    private func repairNote(_ f: StoreFinding, _ s: StoreSnapshot, deadline: Deadline) throws(AccountError) -> String? {
        switch f.kind {
        case .identityNamesMissingAccount, .halfMadeAccount:
            guard let (m, identity) = identityFile(f.key, s) ?? primaryIdentity(f.serviceUserID, s) else {
                return "no identity to complete it with: delete the account"
            }
            let docs = try readAccount(m.uuid, deadline: deadline)
            let completed = try complete(
                m, identity, fullName: nil, profile: docs.profile, providers: docs.providers, deadline: deadline)
            // Listed now: a Google identity takes its suspension, as a sign-up's completion does.
            _ = try syncSuspension(completed, provider: identity.provider, id: identity.subject, deadline: deadline)
        case .identityNamesDeletedAccount, .staleIdentityFile:
            guard let m = s.identities[f.key] else { return "identity file unreadable" }
            try discard(m, key: f.key, session: nil, deadline: deadline)
        case .unlistedIdentity:
            guard let (m, identity) = identityFile(f.key, s) else { return "identity file unreadable" }
            guard
                let linked = try completeLink(loadAccount(m.uuid, deadline: deadline), m, identity, deadline: deadline)
            else {
                try discard(m, key: f.key, session: nil, deadline: deadline)  // stale by now: as sign-in does
                return nil
            }
            _ = try syncSuspension(linked, provider: identity.provider, id: identity.subject, deadline: deadline)
        case .listedIdentityWithoutFile:
            let link = s.providers[f.serviceUserID]?.providers.first { AccountKeys.identity($0.type, $0.id) == f.key }
            guard let linkID = link?.linkID else { return "a link from before link ids: unlink it, or link again" }
            if let other = s.identities[f.key], other.uuid != f.serviceUserID {
                return "the identity file names account \(other.uuid): a person must decide which account keeps it"
            }
            if case .preconditionFailed = try backend.put(
                identityPut(f.key, uuid: f.serviceUserID, linkID: linkID), deadline: deadline)
            {
                return "an identity file appeared meanwhile: check again"
            }
        case .stalePendingLink:
            guard let (provider, sub) = AccountService.identity(ofKey: f.key),
                let claim = s.providers[f.serviceUserID]?.pending.first(where: { $0.type == provider && $0.id == sub })
            else { return "the pending link is gone" }
            _ = try cancelClaim(
                loadAccount(f.serviceUserID, deadline: deadline), VerifiedIdentity(provider: provider, subject: sub),
                linkID: claim.linkID, deadline: deadline)
        case .claimNamesDeletedAccount:
            guard let claim = s.claims[f.key] else { return "claim unreadable" }
            if try !releaseIfOwnerDeleted(claim, key: f.key, deadline: deadline) { return "the owner is not deleted" }
        case .suspensionNotApplied:
            return try repairSuspension(f, deadline: deadline)
        case .suspensionUnreadable:
            return "not the service's JSON: look at it; sign-in and link with that identity fail until it is fixed"
        case .deletionStuck:
            guard let record = s.deletions[f.serviceUserID] else { return "deletion record unreadable" }
            let progress = try advance(
                f.serviceUserID, record, purgeUntil: deadline.earlier(by: 2_000), deadline: deadline)
            if progress.pending { return "still pending: purge or second pass not due yet; run again later" }
        }
        return nil
    }

    private func identityFile(_ key: String, _ s: StoreSnapshot) -> (IdentityMapping, VerifiedIdentity)? {
        guard let m = s.identities[key], let (provider, sub) = AccountService.identity(ofKey: key) else { return nil }
        return (m, VerifiedIdentity(provider: provider, subject: sub))
    }

    /// A half-made account found by its documents: its primary listed identity, with its file.
    private func primaryIdentity(_ uuid: String, _ s: StoreSnapshot) -> (IdentityMapping, VerifiedIdentity)? {
        guard let doc = s.providers[uuid], let link = doc.active(doc.primaryProvider) ?? doc.providers.first,
            let m = s.identities[AccountKeys.identity(link.type, link.id)], m.uuid == uuid
        else { return nil }
        return (m, VerifiedIdentity(provider: link.type, subject: link.id, email: link.email))
    }
}

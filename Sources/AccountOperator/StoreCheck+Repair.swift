import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport
import TokenVerification

/// `check --repair`: account by account, every break found is read again by key and judged
/// again by the same rule (`AccountCheckView.findings`) before anything is written; only the
/// breaks that still hold are repaired, each through the path a function takes when it meets
/// the same break (sign-in's completion of a half-made account and of an unlisted link, its
/// discard of a stale identity file by the version read, the link's create-only identity-file
/// write and its claim cancel, the claim's release of a deleted owner's claim, the scheduled
/// run's advance of a deletion): conditional writes only. Then the account is read and judged a
/// third time: a finding is repaired when it no longer holds.
extension StoreCheck {
    package func repairAll(
        _ report: inout StoreCheckReport, deadline: Deadline, progress: (String) -> Void, hooks: StoreRepairHooks
    ) {
        let byAccount = Dictionary(grouping: report.findings.indices.filter { repairable(report.findings[$0]) }) {
            report.findings[$0].serviceUserID
        }
        var stopped: String?
        for (n, (uuid, indices)) in byAccount.sorted(by: { $0.key < $1.key }).enumerated() {
            progress("repairing account \(n + 1)/\(byAccount.count)")
            if let stopped {
                for i in indices { report.findings[i].note = stopped }
                continue
            }
            let found = indices.map { report.findings[$0] }
            let outcome = repairAccount(uuid, found, deadline: deadline, hooks: hooks)
            if outcome.stopped { stopped = "not repaired: the audit line could not be written" }
            for (i, f) in zip(indices, outcome.findings) { report.findings[i] = f }
        }
    }

    /// Whether `check --repair` has a path for the finding (an unreadable document is a person's).
    package func repairable(_ f: StoreFinding) -> Bool { f.kind != .unreadableDocument && !f.serviceUserID.isEmpty }

    /// One account's findings, re-read, repaired where they still hold, and judged again.
    package func repairAccount(
        _ uuid: String, _ found: [StoreFinding], deadline: Deadline, hooks: StoreRepairHooks
    ) -> (findings: [StoreFinding], stopped: Bool) {
        var results = found
        func same(_ a: StoreFinding, _ b: StoreFinding) -> Bool { a.kind == b.kind && a.key == b.key }
        let before: AccountCheckView
        do throws(AccountError) { before = try reread(uuid, found, deadline: deadline) } catch {
            for i in results.indices {
                results[i].mark(false, "not repaired: re-reading failed (\(error.brief))")
            }
            return (results, false)
        }
        let holding = before.findings(nowMs: store.environment.now(), deletionBoundMs: store.deletionBoundMs())
        let still = results.indices.filter { i in holding.contains { same($0, results[i]) } }
        for i in results.indices where !still.contains(i) { results[i].mark(true, "no longer broken when re-read") }
        guard !still.isEmpty else { return (results, false) }
        guard hooks.willRepair(uuid, still.map { results[$0] }) else {
            for i in still { results[i].mark(false, "not repaired: the audit line could not be written") }
            return (results, true)
        }
        for i in still {
            do throws(AccountError) {
                results[i].note = try repairNote(results[i], before, deadline: deadline)
            } catch {
                results[i].note = "repair failed: \(error.brief)"
            }
        }
        let after: [StoreFinding]
        do throws(AccountError) {
            after = try reread(uuid, found, deadline: deadline).findings(
                nowMs: store.environment.now(), deletionBoundMs: store.deletionBoundMs())
        } catch {
            for i in still { results[i].mark(false, results[i].note ?? "not confirmed: \(error.brief)") }
            hooks.didRepair(uuid, still.map { results[$0] })
            return (results, false)
        }
        for i in still { results[i].repaired = !after.contains { same($0, results[i]) } }
        hooks.didRepair(uuid, still.map { results[$0] })
        return (results, false)
    }

    /// The account's view read again by key: the mapping files the findings name, then its
    /// documents and deletion record, then the files at its listed identities' keys (objects kept,
    /// so a delete removes exactly the version read).
    package func reread(
        _ uuid: String, _ found: [StoreFinding], deadline: Deadline
    ) throws(AccountError) -> AccountCheckView {
        let mappingKeys = Set(
            found.map(\.key).filter { $0.hasPrefix("identities/") || $0.hasPrefix("purchases/apple/") })
        let first = [AccountKeys.profile(uuid), AccountKeys.providers(uuid), AccountKeys.deletion(uuid)]
        var objects: [String: S3Object?] = [:]
        // The files the findings name first, then the documents, as sign-in reads them: a link
        // claims its entry in providers.json before it writes its file, so a file read before
        // providers.json never looks stale for a link that is still under way. Read in one round,
        // a link landing between the two reads had its new file deleted as stale (simulation
        // seed 17078: the account then listed an identity with no file).
        for (key, result) in store.readEach(mappingKeys.sorted(), deadline: deadline) {
            objects[key] = try result.get()
        }
        for (key, result) in store.readEach(first, deadline: deadline) { objects[key] = try result.get() }
        var view = AccountCheckView(uuid: uuid)
        view.profile = store.stored(objects[first[0]] ?? nil, key: first[0]) { _ in () }
        let providers = objects[first[1]] ?? nil
        view.providers = store.stored(providers, key: first[1], ProvidersDocument.init(json:)).map {
            ($0, etag: providers?.etag ?? "")
        }
        view.deletion = storedDeletion(objects[first[2]] ?? nil, key: first[2])
        let listed = (view.listedKeys + view.preparedKeys).filter { objects[$0] == nil }
        for (key, result) in store.readEach(listed, deadline: deadline) { objects[key] = try result.get() }
        for (key, result) in store.readEach(StoreCheck.suspensionKeys(view), deadline: deadline) {
            let sub = String(key.dropFirst(AccountKeys.suspensionsPrefix(.google).utf8.count).dropLast(5))
            view.suspensions[sub] = store.stored(try result.get(), key: key, IdentitySuspension.init(json:))
        }
        for key in mappingKeys.union(view.listedKeys).union(view.preparedKeys) {
            let file = store.storedMapping(objects[key] ?? nil, key: key)
            if view.listedKeys.contains(key) { view.listedFiles[key] = file }
            if view.preparedKeys.contains(key) { view.preparedFiles[key] = file }
            guard let m = file.value, m.uuid == uuid else { continue }
            if key.hasPrefix(AccountKeys.appleTransferPrefix) {
                view.transferFiles[key] = m
            } else if key.hasPrefix("identities/") {
                view.identityFiles[key] = m
            } else {
                view.claims[key] = m
            }
        }
        return view
    }

    /// Nil when the repair path ran, else why the break was left for a person.
    private func repairNote(
        _ f: StoreFinding, _ view: AccountCheckView, deadline: Deadline
    ) throws(AccountError) -> String? {
        switch f.kind {
        case .identityNamesMissingAccount, .halfMadeAccount:
            guard let (m, identity) = identityFile(f.key, view) ?? primaryIdentity(view) else {
                return "no identity to complete it with: delete the account"
            }
            let docs = try store.readAccount(m.uuid, deadline: deadline)
            let completed = try links.complete(
                m, identity, fullName: nil, profile: docs.profile, providers: docs.providers, deadline: deadline)
            // Listed now: a Google identity takes its suspension, as a sign-up's completion does.
            _ = try suspensions.syncSuspension(
                completed, provider: identity.provider, id: identity.subject, deadline: deadline)
        case .identityNamesDeletedAccount, .staleIdentityFile:
            guard let m = view.identityFiles[f.key] else { return "the identity file is gone" }
            try store.discard(m, key: f.key, session: nil, deadline: deadline)
        case .unlistedIdentity:
            guard let (m, identity) = identityFile(f.key, view) else { return "the identity file is gone" }
            let completion: Account?
            do throws(AccountError) {
                completion = try links.completeLink(
                    store.loadAccount(m.uuid, deadline: deadline), m, identity, deadline: deadline)
            } catch {
                // Completing it would link an identity while the account is disabled.
                guard case .accountDisabled = error else { throw error }
                return "the account is disabled: the link is finished once it is enabled (check again then)"
            }
            guard let linked = completion else {
                try store.discard(m, key: f.key, session: nil, deadline: deadline)  // stale by now: as sign-in does
                return nil
            }
            _ = try suspensions.syncSuspension(
                linked, provider: identity.provider, id: identity.subject, deadline: deadline)
        case .listedIdentityWithoutFile:
            let link = view.providers.value?.0.providers.first { AccountKeys.identity($0.type, $0.id) == f.key }
            guard let linkID = link?.linkID else { return "a link from before link ids: unlink it, or link again" }
            if let other = view.listedFiles[f.key]?.value, other.uuid != f.serviceUserID {
                return "the identity file names account \(other.uuid): a person must decide which account keeps it"
            }
            if case .preconditionFailed = try store.backend.put(
                store.identityPut(f.key, uuid: f.serviceUserID, linkID: linkID), deadline: deadline)
            {
                return "an identity file is there (another link): check again"
            }
        case .stalePendingLink:
            guard let (provider, sub) = AccountStore.identity(ofKey: f.key),
                let claim = view.providers.value?.0.pending.first(where: { $0.type == provider && $0.id == sub })
            else { return "the pending link is gone" }
            _ = try links.cancelClaim(
                store.loadAccount(f.serviceUserID, deadline: deadline),
                VerifiedIdentity(provider: provider, subject: sub),
                linkID: claim.linkID, deadline: deadline)
        case .claimNamesDeletedAccount:
            guard let claim = view.claims[f.key] else { return "the claim is gone" }
            if try !purchases.releaseIfOwnerDeleted(claim, key: f.key, deadline: deadline) {
                return "the owner is not deleted"
            }
        case .suspensionNotApplied:
            return try repairSuspensionFinding(f, view, deadline: deadline)
        case .deletionStuck, .purgeKeysFailed:
            guard let (record, etag, _) = view.deletion.value else { return "the deletion record is unreadable" }
            let progress = try deletion.advance(
                f.serviceUserID, (record, etag), purgeUntil: deadline.earlier(by: 2_000), deadline: deadline)
            if progress.pending { return "still pending: purge or second pass not due yet; run again later" }
        case .unfinishedRekey, .transferNamesMissingAccount, .transferNamesDeletedAccount, .staleTransferFile,
            .preparedTransferWithoutFile:
            return try repairTransferNote(f, view, deadline: deadline)
        case .unreadableDocument:
            return "left for a person: read the object's versions"
        }
        return nil
    }

    private func identityFile(_ key: String, _ view: AccountCheckView) -> (IdentityMapping, VerifiedIdentity)? {
        guard let m = view.identityFiles[key], let (provider, sub) = AccountStore.identity(ofKey: key) else {
            return nil
        }
        return (m, VerifiedIdentity(provider: provider, subject: sub))
    }

    /// A half-made account found by its documents: its primary listed identity, with its file.
    private func primaryIdentity(_ view: AccountCheckView) -> (IdentityMapping, VerifiedIdentity)? {
        guard let (doc, _) = view.providers.value, let link = doc.active(doc.primaryProvider) ?? doc.providers.first,
            case .present(let m) = view.listedFiles[AccountKeys.identity(link.type, link.id)] ?? .absent,
            m.uuid == view.uuid
        else { return nil }
        return (m, VerifiedIdentity(provider: link.type, subject: link.id, email: link.email))
    }
}

extension StoreFinding {
    package mutating func mark(_ repaired: Bool, _ note: String) {
        self.repaired = repaired
        self.note = note
    }
}

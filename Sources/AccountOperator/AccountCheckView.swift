import AccountDeletion
import AccountLinks
import AccountModel
import AccountStore
import AccountSuspensions
import PlatformSupport
import StrictJSON

/// Everything `check` judges one account by: its documents, the identity files and claims that
/// name it, and the files at the keys of the identities it lists. The walk fills it from the
/// bucket's listings (by key, never from a listing's silence), and a repair fills it again by
/// reading each of those keys directly: the same `findings` judge both, so a repair acts only on
/// a break that still holds when it is re-read, and is judged fixed by the same rule afterwards.
package struct AccountCheckView {
    package var uuid: String
    package var profile: StoredDocument<Void> = .absent
    package var providers: StoredDocument<(ProvidersDocument, etag: String)> = .absent
    package var deletion: StoredDocument<(DeletionRecord, etag: String, keysFailed: Int)> = .absent
    /// Identity files that name this account, by key.
    package var identityFiles: [String: IdentityMapping] = [:]
    /// The file at each key of an identity providers.json lists or has pending, whatever account
    /// it names (absent: there is none).
    package var listedFiles: [String: StoredDocument<IdentityMapping>] = [:]
    /// Purchase claims that name this account, by key.
    package var claims: [String: IdentityMapping] = [:]
    /// App transfers' files that name this account, by key (contract v4).
    package var transferFiles: [String: IdentityMapping] = [:]
    /// The file at each key of a transfer providers.json has prepared and not re-keyed yet,
    /// whatever account it names (absent: there is none).
    package var preparedFiles: [String: StoredDocument<IdentityMapping>] = [:]
    /// Google's suspension records of the Google identities it lists, by `sub` (absent: none).
    package var suspensions: [String: StoredDocument<IdentitySuspension>] = [:]

    /// Whether the account is deleted (committed, or purged with only its record left).
    package var isDeleted: Bool? {
        switch providers {
        case .present(let (doc, _)): return doc.isDeleted
        case .unreadable: return nil
        case .absent:
            if deletion.isUnreadable { return nil }
            return !deletion.isAbsent
        }
    }

    /// The keys of every identity providers.json lists or has pending.
    package var listedKeys: [String] {
        guard let (doc, _) = providers.value else { return [] }
        return doc.providers.map { AccountKeys.identity($0.type, $0.id) }
            + doc.pending.map { AccountKeys.identity($0.type, $0.id) }
    }

    /// The keys of the transfer files providers.json has prepared and not re-keyed yet.
    package var preparedKeys: [String] {
        guard let (doc, _) = providers.value, !doc.isDeleted else { return [] }
        return doc.providers.flatMap { link in
            link.transfers.filter { $0.rekeyedFrom == nil }.map { AccountKeys.appleTransfer($0.sub) }
        }
    }

    /// The `sub`s of the Google identities providers.json lists.
    package var listedGoogleSubjects: [String] {
        guard let (doc, _) = providers.value else { return [] }
        return doc.providers.filter { $0.type == .google }.map(\.id)
    }

    /// The broken invariants this view shows, each once, in a stable order.
    package func findings(nowMs: Int64, deletionBoundMs: Int64) -> [StoreFinding] {
        var out: [StoreFinding] = []
        func add(_ kind: StoreFinding.Kind, _ key: String, note: String? = nil) {
            var f = StoreFinding(kind: kind, serviceUserID: uuid, key: key)
            f.note = note
            out.append(f)
        }
        if case .unreadable(let why) = profile { add(.unreadableDocument, AccountKeys.profile(uuid), note: why) }
        if case .unreadable(let why) = providers { add(.unreadableDocument, AccountKeys.providers(uuid), note: why) }
        if case .unreadable(let why) = deletion { add(.unreadableDocument, AccountKeys.deletion(uuid), note: why) }
        for (key, m) in identityFiles.sorted(by: { $0.key < $1.key }) {
            guard let (provider, sub) = AccountStore.identity(ofKey: key) else { continue }
            switch providers {
            case .unreadable: continue  // reported above; nothing can be judged against it
            case .absent:
                if deletion.isUnreadable || profile.isUnreadable { continue }
                // As sign-in judges it: only a committed deletion makes the file stale; a record
                // only asked for leaves a half-made account to complete (its commit comes later).
                if deletion.value?.0.committedAtMs != nil {
                    add(.identityNamesDeletedAccount, key)
                } else {
                    add(profile.isAbsent ? .identityNamesMissingAccount : .halfMadeAccount, key)
                }
            case .present(let (doc, _)):
                if doc.isDeleted {
                    add(.identityNamesDeletedAccount, key)
                    continue
                }
                switch doc.state(of: provider, id: sub, linkID: m.linkID, transferSub: m.transferSub) {
                case .active: break
                case .rekeying: add(.unfinishedRekey, key)
                case .pending:
                    let since = doc.pending.first { $0.linkID == m.linkID }?.sinceMs ?? nowMs
                    if nowMs - since >= ProvidersDocument.pendingLifetimeMs { add(.unlistedIdentity, key) }
                case .legacyUnlisted: add(.unlistedIdentity, key)
                // The old file of a re-key committed and not cleaned up: that re-key's finding
                // (on providers.json) covers it, and its clean-up removes it.
                case .stale where doc.isOldFileOfUnfinishedRekey(provider, id: sub, linkID: m.linkID): break
                case .stale: add(.staleIdentityFile, key)
                }
            }
        }
        if let (doc, _) = providers.value, !doc.isDeleted {
            if profile.isAbsent { add(.halfMadeAccount, AccountKeys.profile(uuid)) }
            for link in doc.providers {
                let key = AccountKeys.identity(link.type, link.id)
                switch listedFiles[key] ?? .absent {
                case .unreadable(let why): add(.unreadableDocument, key, note: why)
                case .absent: add(.listedIdentityWithoutFile, key)
                case .present(let file):
                    if file.uuid != uuid || file.linkID != link.linkID { add(.listedIdentityWithoutFile, key) }
                }
            }
            for p in doc.pending where nowMs - p.sinceMs >= ProvidersDocument.pendingLifetimeMs {
                let key = AccountKeys.identity(p.type, p.id)
                if listedFiles[key]?.value?.linkID != p.linkID, listedFiles[key]?.isUnreadable != true {
                    add(.stalePendingLink, key)
                }
            }
        }
        if let (doc, _) = providers.value, !doc.isDeleted {
            // Google's suspension: the entry says what the record says (issue 25).
            for link in doc.providers where link.type == .google {
                let key = AccountKeys.suspension(.google, link.id)
                switch suspensions[link.id] ?? .absent {
                case .absent: continue
                case .unreadable(let why): add(.unreadableDocument, key, note: why)
                case .present(let record):
                    if !record.agrees(with: link.suspension) && record.supersedes(link.suspension) {
                        add(.suspensionNotApplied, key)
                    }
                }
            }
        }
        if isDeleted == true {
            for key in claims.keys.sorted() { add(.claimNamesDeletedAccount, key) }
        }
        transferFindings(add)
        if let (record, _, keysFailed) = deletion.value {
            if !record.isDone && nowMs - record.requestedAtMs > deletionBoundMs {
                add(.deletionStuck, AccountKeys.deletion(uuid))
            }
            if keysFailed > 0 {
                add(.purgeKeysFailed, AccountKeys.deletion(uuid), note: "\(keysFailed) key(s) or upload(s) not removed")
            }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0.kind.rawValue + " " + $0.key).inserted }
    }

    package init(
        uuid: String, profile: StoredDocument<Void> = .absent,
        providers: StoredDocument<(ProvidersDocument, etag: String)> = .absent,
        deletion: StoredDocument<(DeletionRecord, etag: String, keysFailed: Int)> = .absent,
        identityFiles: [String: IdentityMapping] = [:], listedFiles: [String: StoredDocument<IdentityMapping>] = [:],
        claims: [String: IdentityMapping] = [:], transferFiles: [String: IdentityMapping] = [:],
        preparedFiles: [String: StoredDocument<IdentityMapping>] = [:],
        suspensions: [String: StoredDocument<IdentitySuspension>] = [:]
    ) {
        self.uuid = uuid
        self.profile = profile
        self.providers = providers
        self.deletion = deletion
        self.identityFiles = identityFiles
        self.listedFiles = listedFiles
        self.claims = claims
        self.transferFiles = transferFiles
        self.preparedFiles = preparedFiles
        self.suspensions = suspensions
    }
}

extension DeletionRecord {
    /// `purge.keysFailed` of a stored record: keys or uploads its purge could not remove (they are
    /// isolated and retried by the scheduled run). Read tolerantly: absent or malformed is 0.
    package static func keysFailed(in json: JSONValue) -> Int {
        guard let n = json["purge"]?["keysFailed"]?.int64Value, n > 0 else { return 0 }
        return Int(clamping: n)
    }
}

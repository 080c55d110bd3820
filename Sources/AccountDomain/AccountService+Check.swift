import AWSClients
import PlatformSupport
import TokenVerification

/// `check`: walks the bucket for broken account invariants (docs/operations.md). Listings are
/// paged (`maxListPages` per prefix) and documents read `sessionsPerRound` at a time; the walk
/// holds one small entry per identity file and account. Repairs are in `+CheckRepair`.
extension AccountService {
    /// What the walk read, kept for the repairs.
    struct StoreSnapshot {
        var identities: [String: IdentityMapping] = [:]
        var providers: [String: ProvidersDocument] = [:]
        var profiles: Set<String> = []
        var deletions: [String: (DeletionRecord, String)] = [:]
        var claims: [String: IdentityMapping] = [:]
        /// Google's suspension records by `sub`; nil for one that is unreadable.
        var suspensions: [String: IdentitySuspension?] = [:]
    }

    package func checkStore(
        repair: Bool, deadline: Deadline, progress: (String) -> Void = { _ in }
    ) throws(AccountError) -> StoreCheckReport {
        var report = StoreCheckReport()
        var snapshot = StoreSnapshot()
        func list(_ prefix: String) throws(AccountError) -> [String] {
            let listed = try listAll(prefix, deadline: deadline) { page in
                report.pages += 1
                progress("listing \(prefix) page \(page)")
            }
            report.complete = report.complete && listed.complete
            return listed.keys
        }
        let identityKeys = try list("identities/"), userKeys = try list("users/")
        let deletionKeys = try list(AccountKeys.deletionsPrefix), claimKeys = try list("purchases/apple/")
        var withProviders: [String] = []
        for key in userKeys {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[2] == "account", UUIDText.isCanonical(String(parts[1])) else { continue }
            if parts[3] == "providers.json" { withProviders.append(String(parts[1])) }
            if parts[3] == "profile.json" { snapshot.profiles.insert(String(parts[1])) }
        }
        let reads: [String] =
            identityKeys + withProviders.map(AccountKeys.providers) + deletionKeys + claimKeys
        var done = 0
        for start in stride(from: 0, to: reads.count, by: 1024) {
            let chunk = Array(reads[start..<min(start + 1024, reads.count)])
            for (key, object) in try getAll(chunk, deadline: deadline) {
                guard let object else { continue }
                try absorb(key, object, into: &snapshot)
            }
            done += chunk.count
            progress("read \(done)/\(reads.count) documents")
        }
        try readSuspensions(list(AccountKeys.suspensionsPrefix(.google)), into: &snapshot, deadline: deadline)
        report.suspensions = snapshot.suspensions.count
        report.identityFiles = snapshot.identities.count
        report.accounts = Set(snapshot.providers.keys).union(snapshot.profiles).count
        report.claims = snapshot.claims.count
        report.deletions = snapshot.deletions.count
        report.findings = findings(in: snapshot, nowMs: environment.now())
        if repair {
            for i in report.findings.indices {
                progress("repairing \(i + 1)/\(report.findings.count)")
                report.findings[i] = self.repair(report.findings[i], snapshot, deadline: deadline)
            }
        }
        return report
    }

    private func absorb(_ key: String, _ object: S3Object, into s: inout StoreSnapshot) throws(AccountError) {
        if key.hasPrefix("identities/") || key.hasPrefix("purchases/apple/") {
            let m: IdentityMapping?
            do throws(AccountError) { m = try mapping(object, key: key) } catch { return }  // not ours to judge
            if key.hasPrefix("identities/") { s.identities[key] = m } else { s.claims[key] = m }
        } else if key.hasPrefix(AccountKeys.deletionsPrefix) {
            let record = try decodeDocument(object.body, key: key, DeletionRecord.init(json:))
            s.deletions[record.serviceUserID] = (record, object.etag)
        } else {
            let doc = try decodeDocument(object.body, key: key, ProvidersDocument.init(json:))
            s.providers[String(key.split(separator: "/")[1])] = doc
        }
    }

    /// The identity an identity file's key names.
    static func identity(ofKey key: String) -> (IdentityProvider, String)? {
        let parts = key.split(separator: "/")
        guard parts.count == 3, let provider = IdentityProvider(rawValue: String(parts[1])) else { return nil }
        return (provider, String(parts[2]))
    }

    /// How long past its request a deletion may take: the contract's bound on the second pass.
    func deletionBoundMs() -> Int64 { Int64(settings.credentialsDurationSeconds) * 1000 + 3_600_000 }

    func findings(in s: StoreSnapshot, nowMs: Int64) -> [StoreFinding] {
        var out: [StoreFinding] = []
        func add(_ kind: StoreFinding.Kind, _ uuid: String, _ key: String) {
            out.append(StoreFinding(kind: kind, serviceUserID: uuid, key: key))
        }
        func isDeleted(_ uuid: String) -> Bool { s.providers[uuid]?.isDeleted ?? (s.deletions[uuid] != nil) }
        for (key, m) in s.identities.sorted(by: { $0.key < $1.key }) {
            guard let (provider, sub) = AccountService.identity(ofKey: key) else { continue }
            guard let doc = s.providers[m.uuid] else {
                if s.deletions[m.uuid] != nil {
                    add(.identityNamesDeletedAccount, m.uuid, key)
                } else {
                    add(s.profiles.contains(m.uuid) ? .halfMadeAccount : .identityNamesMissingAccount, m.uuid, key)
                }
                continue
            }
            if doc.isDeleted {
                add(.identityNamesDeletedAccount, m.uuid, key)
                continue
            }
            switch doc.state(of: provider, id: sub, linkID: m.linkID) {
            case .active: break
            case .pending:
                let since = doc.pending.first { $0.linkID == m.linkID }?.sinceMs ?? nowMs
                if nowMs - since >= ProvidersDocument.pendingLifetimeMs { add(.unlistedIdentity, m.uuid, key) }
            case .legacyUnlisted: add(.unlistedIdentity, m.uuid, key)
            case .stale: add(.staleIdentityFile, m.uuid, key)
            }
        }
        for (uuid, doc) in s.providers.sorted(by: { $0.key < $1.key }) where !doc.isDeleted {
            if !s.profiles.contains(uuid) { add(.halfMadeAccount, uuid, AccountKeys.profile(uuid)) }
            for link in doc.providers {
                let key = AccountKeys.identity(link.type, link.id)
                let file = s.identities[key]
                if file?.uuid != uuid || file?.linkID != link.linkID { add(.listedIdentityWithoutFile, uuid, key) }
            }
            for p in doc.pending where nowMs - p.sinceMs >= ProvidersDocument.pendingLifetimeMs {
                let key = AccountKeys.identity(p.type, p.id)
                if s.identities[key]?.linkID != p.linkID { add(.stalePendingLink, uuid, key) }
            }
        }
        for (key, claim) in s.claims.sorted(by: { $0.key < $1.key }) where isDeleted(claim.uuid) {
            add(.claimNamesDeletedAccount, claim.uuid, key)
        }
        for (uuid, (record, _)) in s.deletions.sorted(by: { $0.key < $1.key })
        where !record.isDone && nowMs - record.requestedAtMs > deletionBoundMs() {
            add(.deletionStuck, uuid, AccountKeys.deletion(uuid))
        }
        out += suspensionFindings(in: s)
        return out
    }
}

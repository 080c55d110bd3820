import AWSClients
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport
import TokenVerification

/// `check`: the bucket's account invariants (docs/operations.md). It never lists the users' own
/// objects: accounts come from `users/` listed with the delimiter `/` (one entry per account,
/// however many photos it holds), and each account's documents are read by key. Identity files,
/// claims and deletion records are listed under their own prefixes (one key each). Every
/// judgment rests on documents read by key, never on a key's absence from a listing, so a listing
/// that could not finish leaves the check incomplete (`unchecked`), never wrong; repairs run only
/// after a complete walk, each on a break re-read just before (`StoreCheck+Repair.swift`). Memory: one small
/// entry per identity file and claim, one per deletion record; accounts are judged a page at a time.
extension StoreCheck {
    /// The mapping files and records the walk reads before the accounts.
    package struct CheckIndex {
        package var identities: [String: IdentityMapping] = [:]
        package var identitiesByAccount: [String: [String]] = [:]
        package var claims: [String: IdentityMapping] = [:]
        package var claimsByAccount: [String: [String]] = [:]
        package var transfers: [String: IdentityMapping] = [:]
        package var transfersByAccount: [String: [String]] = [:]
        package var deletions: [String: StoredDocument<(DeletionRecord, etag: String, keysFailed: Int)>] = [:]
        package var deletionsComplete = true
        /// Google's suspension records, by `sub` (`StoreCheck+Suspensions.swift`).
        package var suspensions: [String: StoredDocument<IdentitySuspension>] = [:]
        package var suspensionsComplete = true
    }

    package func checkStore(repair: Bool, deadline: Deadline) -> StoreCheckReport {
        checkStore(StoreCheckOptions(repair: repair), deadline: deadline)
    }

    package func checkStore(
        _ options: StoreCheckOptions, deadline: Deadline, progress: (String) -> Void = { _ in },
        hooks: StoreRepairHooks = StoreRepairHooks()
    ) -> StoreCheckReport {
        var report = StoreCheckReport()
        var index = CheckIndex()
        _ = readMappings(
            "identities/", options, &report, deadline: deadline, progress: progress,
            include: { AccountStore.identity(ofKey: $0) != nil }  // not apple-transfer/
        ) { key, m, report in
            index.identities[key] = m
            index.identitiesByAccount[m.uuid, default: []].append(key)
            report.identityFiles += 1
        }
        // App transfers' files (contract v4): a small prefix, one key per prepared Apple identity.
        _ = readMappings(
            AccountKeys.appleTransferPrefix, options, &report, deadline: deadline, progress: progress,
            include: { _ in true }
        ) { key, m, report in
            index.transfers[key] = m
            index.transfersByAccount[m.uuid, default: []].append(key)
            report.transferFiles += 1
        }
        _ = readMappings(
            "purchases/apple/", options, &report, deadline: deadline, progress: progress, include: { _ in true }
        ) { key, m, report in
            index.claims[key] = m
            index.claimsByAccount[m.uuid, default: []].append(key)
            report.claims += 1
        }
        index.deletionsComplete = walkListing(
            AccountKeys.deletionsPrefix, options, &report, deadline: deadline, progress: progress
        ) { page, report in
            let keys = page.keys.filter { AccountStore.account(ofDeletionKey: $0) != nil }
            for (key, result) in store.readEach(keys, deadline: deadline) {
                switch result {
                case .failure(let e): report.noteUnchecked("GET \(key): \(e.brief)")
                case .success(let object):
                    let record = storedDeletion(object, key: key)
                    if !record.isAbsent { index.deletions[AccountStore.account(ofDeletionKey: key)!] = record }
                }
            }
            report.deletions = index.deletions.count
        }
        readSuspensions(&index, options, &report, deadline: deadline, progress: progress)
        var seen = Set<String>()
        let nowMs = store.environment.now()
        _ = walkListing("users/", delimiter: "/", options, &report, deadline: deadline, progress: progress) {
            page, report in
            let uuids = page.commonPrefixes.compactMap(AccountStore.account(ofPrefix:))
            for view in views(of: uuids, index, &report, deadline: deadline) {
                report.findings += view.findings(nowMs: nowMs, deletionBoundMs: store.deletionBoundMs())
            }
            seen.formUnion(uuids)
            report.accounts += uuids.count
            progress("checked \(report.accounts) accounts")
        }
        // Accounts named by a mapping file but not listed under users/ (never made, or purged):
        // read by key, as every other account, never judged missing from the listing.
        let named = Set(index.identitiesByAccount.keys).union(index.claimsByAccount.keys)
            .union(index.transfersByAccount.keys).subtracting(seen)
        for view in views(of: named.sorted(), index, &report, deadline: deadline) {
            report.findings += view.findings(nowMs: nowMs, deletionBoundMs: store.deletionBoundMs())
        }
        // Deletion records of accounts nothing else names: judged by the record alone.
        for (uuid, record) in index.deletions.sorted(by: { $0.key < $1.key })
        where !seen.contains(uuid) && !named.contains(uuid) {
            var view = AccountCheckView(uuid: uuid)
            view.deletion = record
            report.findings += view.findings(nowMs: nowMs, deletionBoundMs: store.deletionBoundMs())
        }
        if options.repair {
            if report.complete {
                repairAll(&report, deadline: deadline, progress: progress, hooks: hooks)
            } else {
                report.repairsWithheld = true
            }
        }
        return report
    }

    /// Lists `prefix` and reads every mapping file (identity file or claim) a page at a time;
    /// an unreadable one is a finding. False when the listing could not finish.
    private func readMappings(
        _ prefix: String, _ options: StoreCheckOptions, _ report: inout StoreCheckReport, deadline: Deadline,
        progress: (String) -> Void, include: (String) -> Bool,
        absorb: (String, IdentityMapping, inout StoreCheckReport) -> Void
    ) -> Bool {
        walkListing(prefix, options, &report, deadline: deadline, progress: progress) { page, report in
            for (key, result) in store.readEach(page.keys.filter(include), deadline: deadline) {
                switch result {
                case .failure(let e): report.noteUnchecked("GET \(key): \(e.brief)")
                case .success(let object):
                    switch store.storedMapping(object, key: key) {
                    case .absent: continue  // gone since it was listed
                    case .unreadable(let why):
                        var f = StoreFinding(kind: .unreadableDocument, serviceUserID: "", key: key)
                        f.note = why
                        report.findings.append(f)
                    case .present(var m):
                        m.object = nil  // the walk keeps little; a repair reads the file again
                        absorb(key, m, &report)
                    }
                }
            }
        }
    }

    /// The views of `uuids`: their documents read by key, the mapping files from the index, and
    /// the file at each listed identity's key (read by key when the index does not hold it).
    package func views(
        of uuids: [String], _ index: CheckIndex, _ report: inout StoreCheckReport, deadline: Deadline
    ) -> [AccountCheckView] {
        var keys = uuids.flatMap { [AccountKeys.profile($0), AccountKeys.providers($0)] }
        if !index.deletionsComplete { keys += uuids.map(AccountKeys.deletion) }
        var read: [String: S3Object?] = [:]
        var failed = Set<String>()
        func absorb(_ results: [(String, Result<S3Object?, AccountError>)]) {
            for (key, result) in results {
                switch result {
                case .success(let o): read[key] = .some(o)
                case .failure(let e):
                    failed.insert(key)
                    report.noteUnchecked("GET \(key): \(e.brief)")
                }
            }
        }
        absorb(store.readEach(keys, deadline: deadline))
        var views: [AccountCheckView] = []
        for uuid in uuids {
            let documents =
                [AccountKeys.profile(uuid), AccountKeys.providers(uuid)]
                + (index.deletionsComplete ? [] : [AccountKeys.deletion(uuid)])
            if documents.contains(where: failed.contains) { continue }  // unchecked: noted above
            var view = AccountCheckView(uuid: uuid)
            view.profile = store.stored(read[AccountKeys.profile(uuid)] ?? nil, key: AccountKeys.profile(uuid)) { _ in
                ()
            }
            let providers = read[AccountKeys.providers(uuid)] ?? nil
            view.providers = store.stored(providers, key: AccountKeys.providers(uuid), ProvidersDocument.init(json:))
                .map {
                    ($0, etag: providers?.etag ?? "")
                }
            view.deletion =
                index.deletionsComplete
                ? index.deletions[uuid] ?? .absent
                : storedDeletion(read[AccountKeys.deletion(uuid)] ?? nil, key: AccountKeys.deletion(uuid))
            for key in index.identitiesByAccount[uuid] ?? [] { view.identityFiles[key] = index.identities[key] }
            for key in index.claimsByAccount[uuid] ?? [] { view.claims[key] = index.claims[key] }
            for key in index.transfersByAccount[uuid] ?? [] { view.transferFiles[key] = index.transfers[key] }
            views.append(view)
        }
        // Google's suspension records of the listed Google identities: from the index, else (its
        // listing did not finish) read by key.
        if !index.suspensionsComplete {
            absorb(store.readEach(views.flatMap(StoreCheck.suspensionKeys), deadline: deadline))
        }
        for i in views.indices {
            for sub in views[i].listedGoogleSubjects {
                let key = AccountKeys.suspension(.google, sub)
                views[i].suspensions[sub] =
                    index.suspensionsComplete
                    ? index.suspensions[sub] ?? .absent
                    : (failed.contains(key)
                        ? .absent : store.stored(read[key] ?? nil, key: key, IdentitySuspension.init(json:)))
            }
        }
        // The files of listed identities and prepared transfers: from the index, else read by key
        // (an absent key in a listing proves nothing; a GET does).
        let known = index.identities.merging(index.transfers) { a, _ in a }
        let missing = Set(views.flatMap { $0.listedKeys + $0.preparedKeys }).subtracting(known.keys).sorted()
        absorb(store.readEach(missing, deadline: deadline))
        for i in views.indices {
            for key in views[i].listedKeys + views[i].preparedKeys {
                let file: StoredDocument<IdentityMapping>
                if let m = known[key] {
                    file = .present(m)
                } else if !failed.contains(key) {
                    file = store.storedMapping(read[key] ?? nil, key: key)
                } else {
                    continue
                }
                if key.hasPrefix(AccountKeys.appleTransferPrefix) {
                    views[i].preparedFiles[key] = file
                } else {
                    views[i].listedFiles[key] = file
                }
            }
        }
        return views.filter { view in !(view.listedKeys + view.preparedKeys).contains(where: failed.contains) }
    }

}

import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import StrictJSON

/// How one `prepare` run goes (authctl's options).
package struct TransferPrepareOptions: Sendable {
    /// Identities asked about together (Apple's requests of one batch go out at once).
    package var batch: Int
    /// Start the walk from the beginning whatever the progress says.
    package var restart: Bool
    /// Walk and plan; no request to Apple, no write.
    package var dryRun: Bool
    /// Stop after this many identities (a sample, or a test's midway stop); nil: all.
    package var limit: Int?
    /// The progress is written at most this often (and at the end of every listing page).
    package var saveEveryMs: Int64

    package init(
        batch: Int = 16, restart: Bool = false, dryRun: Bool = false, limit: Int? = nil, saveEveryMs: Int64 = 1_000
    ) {
        self.batch = max(1, batch)
        self.restart = restart
        self.dryRun = dryRun
        self.limit = limit
        self.saveEveryMs = saveEveryMs
    }
}

/// The operator's `apple-transfer prepare` (contract v4): before an app transfer, every Apple
/// identity the service holds gets its `transfer_sub` for the recipient team, recorded on its
/// Apple link and in `identities/apple-transfer/<transfer_sub>`. It walks `identities/apple/`
/// (one key per Apple identity; never the users' objects) in S3's key order a batch at a time and
/// keeps its place in `TransferProgress`, so a run that stops for any reason (a kill included)
/// continues where it stopped; identities prepared already cost no request to Apple.
extension AppleTransferFlow {
    package func prepareAppleTransfer(
        team: String, api: UserMigrationService, options: TransferPrepareOptions, deadline: Deadline,
        progress: (TransferRunReport) -> Void = { _ in }
    ) throws(AccountError) -> (run: TransferRunReport, pass: TransferRunReport) {
        let progressKey = AccountKeys.transferProgress(team)
        let stored = try store.backend.get(progressKey, deadline: deadline)
        let now = store.environment.now()
        var marker =
            try stored.map { object throws(AccountError) in
                try decodeDocument(object.body, key: progressKey, TransferProgress.init(json:))
            } ?? TransferProgress(team: team, nowMs: now)
        if stored != nil && (marker.finished || options.restart) {
            let passes = marker.passes
            marker = TransferProgress(team: team, nowMs: now)
            marker.passes = passes + 1
        }
        var etag = stored?.etag
        var report = TransferRunReport()
        report.resumedAfter = marker.after
        var lastSave = now
        func save() throws(AccountError) {
            guard !options.dryRun else { return }
            marker.updatedAtMs = store.environment.now()
            let put = store.jsonPut(progressKey, marker.json, etag.map { .ifMatch($0) } ?? .ifNoneMatch)
            guard case .stored(let newETag) = try store.backend.put(put, deadline: deadline) else {
                throw .conflict("another prepare run for team \(team) is writing its progress")
            }
            etag = newETag
            lastSave = store.environment.now()
        }
        func stop(_ why: String) throws(AccountError) -> (run: TransferRunReport, pass: TransferRunReport) {
            report.stoppedBecause = why
            try save()
            return (report, marker.totals)
        }
        try save()
        for _ in 0..<1_000_000 {
            var listing = Round()
            let slot = listing.list(AccountKeys.appleIdentityPrefix, after: marker.after)
            let page = try store.backend.run(listing, deadline: deadline).value(slot)
            let keys = page.keys.filter { AccountStore.identity(ofKey: $0)?.0 == .apple }
            for start in stride(from: 0, to: keys.count, by: options.batch) {
                if let limit = options.limit, report.walked >= limit { return try stop("the --limit was reached") }
                if deadline.remainingMilliseconds < 5_000 { return try stop("the time given (--timeout) ran out") }
                let chunk = Array(keys[start..<min(start + options.batch, keys.count)])
                var part = TransferRunReport()
                let handled = try prepareBatch(chunk, team: team, api: api, dryRun: options.dryRun, &part, deadline)
                report.add(part)
                marker.totals.add(part)
                if handled < chunk.count {
                    if handled > 0 { marker.after = chunk[handled - 1] }
                    return try stop(part.stoppedBecause ?? "Apple is unavailable")
                }
                marker.after = chunk.last
                progress(report)
                if store.environment.now() - lastSave >= options.saveEveryMs { try save() }
            }
            guard page.isTruncated, let last = page.keys.last else {
                marker.finished = true
                report.finished = true
                try save()
                return (report, marker.totals)
            }
            marker.after = last
            try save()
        }
        return try stop("the walk's page limit was reached")
    }

    /// One batch: planned, asked about, recorded, counted in `part`. Answers how many identities
    /// of the batch (from its start) are done with: fewer than all when Apple became unavailable.
    private func prepareBatch(
        _ keys: [String], team: String, api: UserMigrationService, dryRun: Bool, _ part: inout TransferRunReport,
        _ deadline: Deadline
    ) throws(AccountError) -> Int {
        let plans = try planTransfers(keys, team: team, deadline: deadline)
        var asks: [Int] = []
        for (i, plan) in plans.enumerated() { if case .ask = plan { asks.append(i) } }
        var handled = keys.count
        var toRecord: [(Int, TransferCandidate, String)] = []
        if !dryRun && !asks.isEmpty {
            let subs = asks.map { i -> String in
                if case .ask(let c) = plans[i] { return c.sub }
                return ""
            }
            let answers = api.transferSubs(subs, target: team, deadline: deadline)
            for (i, answer) in zip(asks, answers) {
                guard case .ask(let candidate) = plans[i] else { continue }
                switch answer {
                case .value(let transferSub) where AccountKeys.isValidProviderID(transferSub):
                    toRecord.append((i, candidate, transferSub))
                case .value: part.fail(candidate.who, "Apple answered a malformed transfer_sub")
                case .refused(let code): part.fail(candidate.who, code)
                case .unavailable(let why):
                    handled = min(handled, i)
                    part.stoppedBecause = "Apple: \(why)"
                }
            }
        }
        for (i, plan) in plans.enumerated() {
            if case .writeFile(let candidate, let transferSub) = plan { toRecord.append((i, candidate, transferSub)) }
        }
        toRecord = toRecord.filter { $0.0 < handled }
        let recorded = try recordTransfers(toRecord.map { ($0.1, $0.2) }, team: team, deadline: deadline)
        for ((_, candidate, _), outcome) in zip(toRecord, recorded) {
            switch outcome {
            case .done: part.done += 1
            case .already: part.already += 1
            case .skip(let why): part.skip(why)
            case .fail(let why): part.fail(candidate.who, why)
            }
        }
        for (i, plan) in plans.enumerated() where i < handled {
            part.walked += 1
            switch plan {
            case .already: part.already += 1
            case .skip(let why): part.skip(why)
            case .fail(let who, let why): part.fail(who, why)
            case .ask where dryRun: part.skip("would ask Apple (dry run)")
            case .ask, .writeFile: break
            }
        }
        return handled
    }
}

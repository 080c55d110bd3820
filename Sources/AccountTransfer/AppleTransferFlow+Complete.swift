import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport

/// The operator's `apple-transfer complete` (contract v4): after the transfer, with the recipient
/// team's key, every prepared transfer not re-keyed yet (its file is still there: a re-key removes
/// it) is exchanged at Apple for the user's new `sub` and re-keyed exactly as a sign-in would
/// (`rekeyApple`). The transfer files are the work list, so a run that stops continues by running
/// again; users who signed in meanwhile have no file left.
extension AppleTransferFlow {
    package func completeAppleTransfer(
        team: String, api: UserMigrationService, batch: Int, dryRun: Bool, deadline: Deadline,
        progress: (TransferRunReport) -> Void = { _ in }
    ) throws(AccountError) -> TransferRunReport {
        var report = TransferRunReport()
        var after: String?
        for _ in 0..<1_000_000 {
            var listing = Round()
            let slot = listing.list(AccountKeys.appleTransferPrefix, after: after)
            let page = try store.backend.run(listing, deadline: deadline).value(slot)
            for start in stride(from: 0, to: page.keys.count, by: max(1, batch)) {
                if deadline.remainingMilliseconds < 5_000 {
                    report.stoppedBecause = "the time given (--timeout) ran out"
                    return report
                }
                let chunk = Array(page.keys[start..<min(start + max(1, batch), page.keys.count)])
                if try !completeBatch(chunk, team: team, api: api, dryRun: dryRun, &report, deadline) { return report }
                progress(report)
            }
            guard page.isTruncated, let last = page.keys.last else {
                report.finished = true
                return report
            }
            after = last
        }
        report.stoppedBecause = "the walk's page limit was reached"
        return report
    }

    /// One batch of transfer files. False when Apple became unavailable (the report says why).
    private func completeBatch(
        _ keys: [String], team: String, api: UserMigrationService, dryRun: Bool, _ report: inout TransferRunReport,
        _ deadline: Deadline
    ) throws(AccountError) -> Bool {
        var pending: [(uuid: String, transferSub: String)] = []
        for (key, result) in store.readEach(keys, deadline: deadline) {
            let transferSub = String(key.dropFirst(AccountKeys.appleTransferPrefix.count))
            report.walked += 1
            guard case .present(let file) = store.storedMapping(try result.get(), key: key) else {
                report.skip("the transfer file is gone or unreadable")
                continue
            }
            let docs = try store.readAccount(file.uuid, deadline: deadline)
            guard let account = try? store.account(uuid: file.uuid, profile: docs.profile, providers: docs.providers),
                !account.providers.isDeleted
            else {
                report.skip("the account is deleted or missing (check removes the file)")
                continue
            }
            guard let (i, j) = account.providers.link(preparedFor: transferSub) else {
                report.skip("no Apple link is prepared for it (check removes the file)")
                continue
            }
            let transfer = account.providers.providers[i].transfers[j]
            if transfer.rekeyedFrom != nil {
                if !dryRun { _ = try links.finishRekeys(account, deadline: deadline) }
                report.already += 1
            } else if transfer.team != team {
                report.skip("prepared for another team")
            } else if dryRun {
                report.skip("would ask Apple (dry run)")
            } else {
                pending.append((file.uuid, transferSub))
            }
        }
        guard !pending.isEmpty else { return true }
        let answers = api.exchange(pending.map(\.transferSub), deadline: deadline)
        for ((uuid, transferSub), answer) in zip(pending, answers) {
            switch answer {
            case .refused(let code): report.fail(uuid, code)
            case .unavailable(let why):
                report.stoppedBecause = "Apple: \(why)"
                return false
            case .value(let user):
                guard AccountKeys.isValidProviderID(user.sub) else {
                    report.fail(uuid, "Apple answered a malformed sub")
                    continue
                }
                switch try links.rekeyApple(
                    uuid: uuid, transferSub: transferSub, newSub: user.sub, email: user.email, refuseDisabled: false,
                    deadline: deadline)
                {
                case .rekeyed: report.done += 1
                case .ignored(let why): report.skip(why)
                case .subTaken: report.fail(uuid, "the new sub already names another account")
                }
            }
        }
        return true
    }
}

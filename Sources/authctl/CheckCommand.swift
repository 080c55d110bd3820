import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountOperator
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import StrictJSON

/// `check [--repair]`: the bucket's account invariants, walked without listing the users' own
/// objects, with a progress line on a terminal and a summary; `--repair` fixes, account by
/// account, each break re-read first, through the functions' own repair paths, each account's
/// change in the trail (intent, outcome) with the operator's reason.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Walk the bucket for broken account invariants; --repair fixes them.",
        discussion:
            "Exit status: 0 nothing broken (or all repaired), 3 breaks left, 4 not everything could be checked (nothing is repaired then)."
    )
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Repair what is found (through the same paths the functions use).") var repair = false
    @Flag(help: "Do not ask for confirmation before repairing.") var yes = false
    @Flag(help: "List what would be repaired and change nothing (the same as check without --repair).")
    var dryRun = false
    @Option(help: "Why (the ticket or the schedule), for each audit line of a repair.") var reason: String?
    @Option(
        help: "Listing pages per prefix at most (tests and sampling: a check cut short exits 4 and repairs nothing).")
    var maxPages = 100_000
    @Option(help: "Entries per listing page, 1 to 1000 (tests and the bench).") var pageSize = 1_000
    @Option(help: "Seconds the walk and its repairs may take; what is left unread makes the check incomplete.")
    var timeout = 3_600

    func validate() throws {
        guard maxPages >= 1 else { throw ValidationError("--max-pages must be at least 1") }
        guard (1...1_000).contains(pageSize) else { throw ValidationError("--page-size must be 1 to 1000") }
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second") }
    }

    func run() throws {
        let context = try Console.connect(connection)
        let caller = try Console.caller(context)
        let repairing = repair && !dryRun
        if repairing { try Terminal.confirm("Repair every break found in \(context.bucket)?", yes: yes) }
        let started = Clock.nowMilliseconds()
        let run = AuditTrail(
            caller: caller, action: repairing ? "check-repair" : "check", reason: reason, dryRun: dryRun)
        let report = context.storeCheck.checkStore(
            StoreCheckOptions(repair: repairing, maxPages: maxPages, pageSize: pageSize),
            deadline: .after(milliseconds: Int64(timeout) * 1_000), progress: Terminal.progress,
            hooks: repairing ? CheckCommand.trail(caller, reason) : StoreRepairHooks())
        Terminal.endProgress()
        let elapsed = Clock.nowMilliseconds() - started
        let repaired = report.findings.filter { $0.repaired == true }.count
        let counts: [(String, JSONValue)] = [
            ("found", .int(Int64(report.findings.count))), ("repaired", .int(Int64(repaired))),
            ("complete", .bool(report.complete)),
        ]
        if repairing {
            run.summary(report.complete ? "done" : "withheld", counts)
        } else {
            try run.read("checked", counts)
        }
        show(report, context: context, elapsed: elapsed, repaired: repaired)
        try run.finish()
        if !report.complete { throw ExitCode(ExitStatus.incomplete) }
        if report.findings.contains(where: { $0.repaired != true }) { throw ExitCode(ExitStatus.breaksLeft) }
    }

    /// One intent line before an account's first repair write, one outcome line after: per
    /// account changed, with the operator's reason.
    static func trail(_ caller: CallerIdentity, _ reason: String?) -> StoreRepairHooks {
        func listed(_ findings: [StoreFinding], results: Bool) -> JSONValue {
            .array(
                findings.map { f in
                    var o = JSONObject([("kind", .string(f.kind.rawValue)), ("key", .string(f.key))])
                    if results {
                        o["repaired"] = f.repaired.map(JSONValue.bool) ?? .null
                        o["note"] = f.note.map(JSONValue.string) ?? .null
                    }
                    return .object(o)
                })
        }
        return StoreRepairHooks(
            willRepair: { uuid, findings in
                let trail = AuditTrail(
                    caller: caller, action: "check-repair", serviceUserID: uuid, reason: reason, dryRun: false)
                return (try? trail.intent("repair", [("findings", listed(findings, results: false))])) != nil
            },
            didRepair: { uuid, findings in
                let trail = AuditTrail(
                    caller: caller, action: "check-repair", serviceUserID: uuid, reason: reason, dryRun: false)
                trail.outcome(
                    findings.allSatisfy { $0.repaired == true } ? "done" : "failed",
                    [("findings", listed(findings, results: true))])
            })
    }

    private func show(_ report: StoreCheckReport, context: OperatorContext, elapsed: Int64, repaired: Int) {
        let summary: [(String, JSONValue)] = [
            ("accounts", .int(Int64(report.accounts))), ("identityFiles", .int(Int64(report.identityFiles))),
            ("claims", .int(Int64(report.claims))), ("deletions", .int(Int64(report.deletions))),
            ("suspensions", .int(Int64(report.suspensions))),
            ("pages", .int(Int64(report.pages))), ("requests", .int(Int64(context.backend.requests))),
            ("milliseconds", .int(elapsed)), ("complete", .bool(report.complete)),
            ("unchecked", .array(report.unchecked.prefix(20).map(JSONValue.string))),
            ("uncheckedCount", .int(Int64(report.uncheckedCount))), ("repairsWithheld", .bool(report.repairsWithheld)),
            ("found", .int(Int64(report.findings.count))), ("repaired", .int(Int64(repaired))),
        ]
        if context.json {
            var o = JSONObject(summary)
            o["findings"] = .array(
                report.findings.map { f in
                    .object(
                        JSONObject([
                            ("kind", .string(f.kind.rawValue)), ("serviceUserID", .string(f.serviceUserID)),
                            ("key", .string(f.key)), ("repaired", f.repaired.map(JSONValue.bool) ?? .null),
                            ("note", f.note.map(JSONValue.string) ?? .null),
                        ]))
                })
            Console.printJSON(.object(o))
            return
        }
        var rows = [["kind", "account", "key", "repaired"]]
        for f in report.findings {
            rows.append([
                f.kind.rawValue, f.serviceUserID.isEmpty ? "-" : f.serviceUserID, f.key,
                f.repaired.map { $0 ? "yes" : "no: " + (f.note ?? "") } ?? (f.note.map { "- (\($0))" } ?? "-"),
            ])
        }
        if report.findings.isEmpty {
            Terminal.out("No broken invariants" + (report.complete ? "." : " in what could be checked."))
        } else {
            ShowTable.table(rows).forEach(Terminal.out)
        }
        Terminal.out(
            "checked \(report.accounts) accounts, \(report.identityFiles) identity files, \(report.claims) claims, "
                + "\(report.deletions) deletions, \(report.suspensions) Google suspensions in \(elapsed) ms (\(report.pages) pages, \(context.backend.requests) requests)"
        )
        for why in report.unchecked.prefix(20) { Terminal.out("NOT CHECKED: \(why)") }
        if report.uncheckedCount > 20 { Terminal.out("NOT CHECKED: \(report.uncheckedCount - 20) more") }
        if report.repairsWithheld { Terminal.out("Nothing repaired: the check did not see everything; run it again.") }
        Terminal.out("found \(report.findings.count), repaired \(repaired)")
    }
}

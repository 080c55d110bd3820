import AWSClients
import AccountDomain
import ArgumentParser
import PlatformSupport
import StrictJSON

/// `check [--repair]`: the bucket's account invariants, walked in bounded pages, with a progress
/// line on a terminal and a summary; `--repair` fixes through the functions' own repair paths.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Walk the bucket for broken account invariants; --repair fixes them.")
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Repair what is found (through the same paths the functions use).") var repair = false
    @Flag(help: "Do not ask for confirmation before repairing.") var yes = false
    @Flag(help: "List what would be repaired and change nothing (the same as check without --repair).")
    var dryRun = false

    func run() throws {
        let context = try Console.connect(connection)
        let caller = try Console.caller(context)
        let repairing = repair && !dryRun
        if repairing { try Terminal.confirm("Repair every break found in \(context.bucket)?", yes: yes) }
        let started = Clock.nowMilliseconds()
        let report: StoreCheckReport
        do throws(AccountError) {
            report = try context.service.checkStore(
                repair: repairing, deadline: .after(milliseconds: 3_600_000), progress: Terminal.progress)
        } catch {
            Terminal.endProgress()
            throw Console.failure(error)
        }
        Terminal.endProgress()
        let elapsed = Clock.nowMilliseconds() - started
        let repaired = report.findings.filter { $0.repaired == true }.count
        AuditLine(
            caller: caller, action: repairing ? "check-repair" : "check", serviceUserID: nil, reason: nil,
            dryRun: dryRun, outcome: "\(report.findings.count) found, \(repaired) repaired"
        ).write()
        let summary: [(String, JSONValue)] = [
            ("accounts", .int(Int64(report.accounts))), ("identityFiles", .int(Int64(report.identityFiles))),
            ("claims", .int(Int64(report.claims))), ("deletions", .int(Int64(report.deletions))),
            ("suspensions", .int(Int64(report.suspensions))),
            ("pages", .int(Int64(report.pages))), ("requests", .int(Int64(context.backend.requests))),
            ("milliseconds", .int(elapsed)), ("complete", .bool(report.complete)),
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
        } else {
            var rows = [["kind", "account", "key", "repaired"]]
            for f in report.findings {
                rows.append([
                    f.kind.rawValue, f.serviceUserID, f.key,
                    f.repaired.map { $0 ? "yes" : "no: " + (f.note ?? "") } ?? "-",
                ])
            }
            if report.findings.isEmpty {
                Terminal.out("No broken invariants.")
            } else {
                ShowTable.table(rows).forEach(Terminal.out)
            }
            Terminal.out(
                "checked \(report.accounts) accounts, \(report.identityFiles) identity files, \(report.claims) claims, "
                    + "\(report.deletions) deletions, \(report.suspensions) Google suspensions in \(elapsed) ms (\(report.pages) pages, \(context.backend.requests) requests)"
                    + (report.complete ? "" : "; the listing bound stopped the walk early"))
            Terminal.out("found \(report.findings.count), repaired \(repaired)")
        }
        if report.findings.contains(where: { $0.repaired != true }) { throw ExitCode(3) }
    }
}

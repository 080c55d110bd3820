import AccountDeletion
import AccountModel
import AccountOperator
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import SignInWithApple
import StrictJSON

/// What the app-transfer commands show: the progress line on a terminal, the summary (also the
/// outcome audit line's counts), and who could not be handled and why.
extension AppleTransferCommand {
    /// One run of `prepare` or `complete` (`body`, given the progress line to draw), after its
    /// intent line: the outcome line (failed, done, or stopped with the counts), the summary, and
    /// exit status 4 when it stopped before the end.
    static func perform(
        _ context: OperatorContext, _ client: AppleMigrationClient, trail: AuditTrail, dryRun: Bool,
        details: [(String, JSONValue)],
        _ body: (_ progress: (TransferRunReport) -> Void) throws(AccountError) -> (
            TransferRunReport, TransferRunReport?
        )
    ) throws {
        let started = Clock.nowMilliseconds()
        var (run, pass): (TransferRunReport, TransferRunReport?)
        do throws(AccountError) {
            (run, pass) = try body { report in Terminal.progress(progressLine(report, client)) }
        } catch {
            Terminal.endProgress()
            if !dryRun { trail.outcome("failed", details + [("error", .string(error.brief))]) }
            throw Console.failure(error)
        }
        Terminal.endProgress()
        run.appleRequests = client.requests
        let summary = summary(run, pass: pass, client, started: started)
        if !dryRun { trail.outcome(run.finished ? "done" : "stopped", details + summary) }
        show(run, pass: pass, summary: details + summary, context: context)
        try trail.finish()
        if !run.finished { throw ExitCode(ExitStatus.incomplete) }
    }

    static func progressLine(_ r: TransferRunReport, _ client: AppleMigrationClient) -> String {
        "walked \(r.walked) · done \(r.done) · already \(r.already) · failed \(r.failed)"
            + " · Apple \(client.requests) requests at \(Int(client.pacer.rate.rounded()))/s"
            + (client.throttled > 0 ? " (\(client.throttled) throttled)" : "")
    }

    static func summary(
        _ run: TransferRunReport, pass: TransferRunReport?, _ client: AppleMigrationClient, started: Int64
    ) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [
            ("walked", .int(Int64(run.walked))), ("done", .int(Int64(run.done))),
            ("already", .int(Int64(run.already))), ("failed", .int(Int64(run.failed))),
            ("appleRequests", .int(Int64(client.requests))), ("throttled", .int(Int64(client.throttled))),
            ("milliseconds", .int(Clock.nowMilliseconds() - started)), ("finished", .bool(run.finished)),
            ("stoppedBecause", run.stoppedBecause.map(JSONValue.string) ?? .null),
        ]
        if let pass {
            out.append(
                ("pass", .object(JSONObject([("done", .int(Int64(pass.done))), ("failed", .int(Int64(pass.failed)))]))))
        }
        return out
    }

    static func show(
        _ run: TransferRunReport, pass: TransferRunReport?, summary: [(String, JSONValue)], context: OperatorContext
    ) {
        if context.json {
            var o = JSONObject(summary)
            o["run"] = run.json
            if let pass { o["pass"] = pass.json }
            Console.printJSON(.object(o))
            return
        }
        if let after = run.resumedAfter { Terminal.out("continued after \(after)") }
        Terminal.out(
            "walked \(run.walked): \(run.done) done, \(run.already) already done, "
                + "\(run.skipped.values.reduce(0, +)) skipped, \(run.failed) could not be handled")
        for (why, n) in run.skipped.sorted(by: { $0.key < $1.key }) { Terminal.out("  skipped \(n): \(why)") }
        if let pass, pass.walked != run.walked {
            Terminal.out("this pass over all its runs: \(pass.done) done, \(pass.failed) could not be handled")
        }
        let failures = pass?.failures ?? run.failures
        if !failures.isEmpty {
            Terminal.out(
                "Could not be handled (invalid_request usually means the user revoked the app's Sign in with Apple):")
            var rows = [["who", "why"]]
            for f in failures.prefix(50) { rows.append([f.who, f.reason]) }
            ShowTable.table(rows).forEach(Terminal.out)
            let total = pass?.failed ?? run.failed
            if total > 50 { Terminal.out("... \(total - 50) more (--json lists up to \(1_000))") }
        }
        for (k, v) in summary where ["appleRequests", "throttled", "milliseconds"].contains(k) {
            Terminal.out("\(k): \(v.serializedString())")
        }
        if let why = run.stoppedBecause { Terminal.out("STOPPED: \(why). Run the same command again to continue.") }
    }
}

import AWSClients
import AccountDeletion
import AccountModel
import AccountOperator
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import StrictJSON

/// `delete`: the app's deletion, run by an operator (GDPR Art. 17). The same steps in the same
/// order (record, commit, identity files and claims, purge; the schedule's second pass). There
/// is no Apple authorization code here, so Sign in with Apple tokens are not revoked: the output
/// says so whenever the account has an Apple identity.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete the account exactly as the app's delete does (no Apple revocation).")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "The account (as for find).") var who: String
    @Option(help: "Why (the request or ticket), for the audit line.") var reason: String
    @Option(help: "Seconds the first purge may take before it is left to the scheduled run.")
    var purgeSeconds: Int = 120

    func run() throws {
        let (context, trail, uuid) = try Console.target(
            who, connection, action: "delete", reason: reason, dryRun: change.dryRun)
        var details: [(String, JSONValue)] = []
        var outcome = "would delete"
        if change.dryRun {
            try trail.read(outcome)
        } else {
            try Terminal.confirm("Delete account \(uuid) and all its data? This cannot be undone.", yes: change.yes)
            let deadline = Deadline.after(milliseconds: Int64(purgeSeconds) * 1000 + 60_000)
            (outcome, details) = try Console.change(
                trail, context,
                intent: "delete the account: deletion record, commit, identity files and claims released, purge"
            ) { () throws(AccountError) -> (String, [(String, JSONValue)]) in
                let o = try context.operatorFlow.deleteAccount(
                    operatorDeletes: uuid, purgeUntil: deadline.earlier(by: 30_000), deadline: deadline)
                return (
                    "deleted",
                    [
                        ("purge", .string(o.purgeComplete ? "complete" : "pending")),
                        // No authorization code from the app: never revoked here (contract: false).
                        ("appleTokensRevoked", o.appleSubject == nil ? .null : .bool(false)),
                    ]
                )
            }
        }
        if context.json {
            var o = JSONObject([("serviceUserID", .string(uuid)), ("outcome", .string(outcome))])
            for (k, v) in details { o[k] = v }
            o["dryRun"] = .bool(change.dryRun)
            Console.printJSON(.object(o))
            return try trail.finish()
        }
        Terminal.out("\(uuid): \(outcome)")
        for (k, v) in details { Terminal.out("  \(k): \(v.serializedString())") }
        if details.contains(where: { $0.0 == "appleTokensRevoked" && $0.1 == .bool(false) }) {
            Terminal.out(
                "  Sign in with Apple tokens were NOT revoked: that needs an authorization code from the app. "
                    + "Ask the user to revoke it in Settings > Apple ID > Sign in with Apple.")
        }
        try trail.finish()
    }
}

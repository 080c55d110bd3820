import AWSClients
import AccountDomain
import ArgumentParser
import PlatformSupport
import StrictJSON

/// The commands that change an account: each asks for confirmation on a terminal (`--yes`
/// elsewhere), honours `--dry-run`, and writes one audit line with the operator's identity.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "The account's sessions.", subcommands: [RevokeCommand.self])

    struct RevokeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Sign out every live session of the account, or one (--session).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The account (as for find).") var who: String
        @Option(help: "Only this session id (from show).") var session: String?
        @Option(help: "Why (the support ticket), for the audit line.") var reason: String?

        func run() throws {
            let (context, caller, uuid) = try Console.target(who, connection, action: "sessions-revoke")
            let what = session.map { "session \($0) of \(uuid)" } ?? "every live session of \(uuid)"
            if change.dryRun {
                report(context, caller, uuid, outcome: "would revoke \(what)", count: nil)
                return
            }
            try Terminal.confirm("Sign out \(what)?", yes: change.yes)
            let count: Int
            do throws(AccountError) {
                count = try context.service.revokeSessions(
                    uuid, only: session, reason: "signed out by an operator", deadline: .after(milliseconds: 120_000))
            } catch { throw Console.failure(error) }
            report(context, caller, uuid, outcome: "revoked", count: count)
        }

        func report(_ c: OperatorContext, _ caller: CallerIdentity, _ uuid: String, outcome: String, count: Int?) {
            AuditLine(
                caller: caller, action: "sessions-revoke", serviceUserID: uuid, reason: reason, dryRun: change.dryRun,
                outcome: outcome, details: [("sessionId", session.map(JSONValue.string) ?? .null)]
            ).write()
            if c.json {
                Console.printJSON([
                    "serviceUserID": .string(uuid), "signedOut": count.map { .int(Int64($0)) } ?? .null,
                    "dryRun": .bool(change.dryRun),
                ])
            } else {
                Terminal.out(count.map { "\($0) session(s) signed out of \(uuid)" } ?? "dry run: \(outcome)")
            }
        }
    }
}

struct DisableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Disable the account: its sign-in, refresh and auth-link actions answer ACCOUNT_DISABLED.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "The account (as for find).") var who: String
    @Option(help: "Why (kept with the account, shown by show, and in the audit line).") var reason: String

    func run() throws { try Toggle.run(disable: true, who: who, reason: reason, connection, change) }
}

struct EnableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable", abstract: "Enable a disabled account again; its sessions work as before.")
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "The account (as for find).") var who: String
    @Option(help: "Why, for the audit line.") var reason: String?

    func run() throws { try Toggle.run(disable: false, who: who, reason: reason, connection, change) }
}

enum Toggle {
    static func run(
        disable: Bool, who: String, reason: String?, _ connection: ConnectionOptions, _ change: ChangeOptions
    ) throws {
        let action = disable ? "disable" : "enable"
        let (context, caller, uuid) = try Console.target(who, connection, action: action)
        var outcome = "would \(action)"
        if !change.dryRun {
            try Terminal.confirm("\(disable ? "Disable" : "Enable") account \(uuid)?", yes: change.yes)
            let flag =
                disable ? AccountDisable(reason: reason ?? "", atMs: Clock.nowMilliseconds(), by: caller.arn) : nil
            do throws(AccountError) {
                let changed = try context.service.setDisabled(uuid, flag, deadline: .after(milliseconds: 60_000))
                outcome = changed ? "\(action)d" : "already \(action)d"
            } catch { throw Console.failure(error) }
        }
        AuditLine(
            caller: caller, action: action, serviceUserID: uuid, reason: reason, dryRun: change.dryRun, outcome: outcome
        )
        .write()
        if context.json {
            Console.printJSON([
                "serviceUserID": .string(uuid), "outcome": .string(outcome), "dryRun": .bool(change.dryRun),
            ])
        } else {
            Terminal.out("\(uuid): \(outcome)")
        }
    }
}

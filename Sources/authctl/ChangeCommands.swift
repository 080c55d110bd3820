import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountOperator
import AccountSessions
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import StrictJSON

/// The commands that change an account: each asks for confirmation on a terminal (`--yes`
/// elsewhere), honours `--dry-run`, and leaves its trail (intent, then outcome).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "The account's sessions.", subcommands: [RevokeCommand.self])

    struct RevokeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Sign out every live session of the account, or one (--session).")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeOptions
        @Argument(help: "The account (as for find).") var who: String
        @Option(help: "Only this session id (from show): 32 lowercase hex characters.") var session: String?
        @Option(help: "Why (the support ticket), for the audit line.") var reason: String?

        func validate() throws {
            if let session, !AccountKeys.isHexID(session) {
                throw ValidationError(
                    "--session '\(session)' is not a session id (32 lowercase hex characters, from show)")
            }
        }

        func run() throws {
            let (context, trail, uuid) = try Console.target(
                who, connection, action: "sessions-revoke", reason: reason, dryRun: change.dryRun)
            let detail: [(String, JSONValue)] = [("sessionId", session.map(JSONValue.string) ?? .null)]
            if let session {
                let found: SessionRecord?
                do throws(AccountError) {
                    found = try context.store.session(uuid, named: session, deadline: .after(milliseconds: 30_000))
                } catch { throw Console.failure(error) }
                guard found != nil else {
                    try trail.read("session-not-found", detail)
                    Terminal.err("authctl: account \(uuid) has no session \(session) (see show for its sessions)")
                    throw ExitCode(ExitStatus.notFound)
                }
            }
            let what = session.map { "session \($0) of \(uuid)" } ?? "every live session of \(uuid)"
            if change.dryRun {
                try trail.read("would revoke \(what)", detail)
                report(context, uuid, count: nil, text: "dry run: would sign out \(what)")
                return
            }
            try Terminal.confirm("Sign out \(what)?", yes: change.yes)
            let deadline = Deadline.after(milliseconds: 120_000)
            let (count, _) = try Console.change(trail, context, intent: "sign out \(what)") {
                () throws(AccountError) -> (Int, [(String, JSONValue)]) in
                let n: Int
                if let session {
                    switch try context.operatorFlow.revokeSession(
                        uuid, named: session, reason: "signed out by an operator", deadline: deadline)
                    {
                    case .revoked: n = 1
                    case .alreadyEnded: n = 0
                    case .notFound: throw .accountNotFound
                    }
                } else {
                    n = try context.operatorFlow.revokeSessions(
                        uuid, only: nil, reason: "signed out by an operator", deadline: deadline)
                }
                return (n, detail + [("signedOut", .int(Int64(n)))])
            }
            let text =
                session != nil && count == 0
                ? "session \(session!) of \(uuid) had already ended" : "\(count) session(s) signed out of \(uuid)"
            report(context, uuid, count: count, text: text)
            try trail.finish()
        }

        func report(_ c: OperatorContext, _ uuid: String, count: Int?, text: String) {
            if c.json {
                Console.printJSON([
                    "serviceUserID": .string(uuid), "signedOut": count.map { .int(Int64($0)) } ?? .null,
                    "dryRun": .bool(change.dryRun),
                ])
            } else {
                Terminal.out(text)
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
        let (context, trail, uuid) = try Console.target(
            who, connection, action: action, reason: reason, dryRun: change.dryRun)
        var outcome = "would \(action)"
        if change.dryRun {
            try trail.read(outcome)
        } else {
            try Terminal.confirm("\(disable ? "Disable" : "Enable") account \(uuid)?", yes: change.yes)
            let flag =
                disable
                ? AccountDisable(reason: reason ?? "", atMs: Clock.nowMilliseconds(), by: trail.caller.arn) : nil
            (outcome, _) = try Console.change(
                trail, context, intent: disable ? "set the disabled flag" : "clear the disabled flag"
            ) { () throws(AccountError) -> (String, [(String, JSONValue)]) in
                let changed = try context.operatorFlow.setDisabled(uuid, flag, deadline: .after(milliseconds: 60_000))
                let result = changed ? "\(action)d" : "already \(action)d"
                return (result, [("result", .string(result))])
            }
        }
        if context.json {
            Console.printJSON([
                "serviceUserID": .string(uuid), "outcome": .string(outcome), "dryRun": .bool(change.dryRun),
            ])
        } else {
            Terminal.out("\(uuid): \(outcome)")
        }
        try trail.finish()
    }
}

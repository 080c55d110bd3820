import AccountModel
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import SignInWithApple
import StrictJSON

/// `apple-transfer prepare|complete` (contract v4, "An app moved to another Apple developer team";
/// runbook: docs/operations.md, "Moving the app to another Apple developer team").
struct AppleTransferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apple-transfer",
        abstract: "Move the Apple users' identities along when the app moves to another Apple developer team.",
        discussion: """
            prepare (before the transfer, the sending team's key) gives every Apple identity its transfer \
            identifier for the recipient team; complete (after it, the recipient team's key) re-keys the users \
            who have not signed in since. Exit status: 0 done (users Apple refused are listed), 1 failed, \
            4 stopped before the end (run again: it continues).
            """,
        subcommands: [PrepareCommand.self, CompleteCommand.self])

    struct PrepareCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prepare",
            abstract: "Before the transfer: ask Apple for each Apple identity's transfer_sub and record it.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeOptions
        @OptionGroup var apple: AppleKeyOptions
        @Option(help: "The recipient team's id (Apple's target).") var targetTeam: String
        @Option(help: "Why (the transfer's ticket), for the audit lines.") var reason: String?
        @Flag(help: "Walk from the beginning, whatever the progress says (prepared identities cost no request).")
        var restart = false
        @Option(help: "Stop after this many identities (a sample run; run again to continue).") var limit: Int?
        @Option(help: "Seconds this run may take; it stops in time and the next run continues.")
        var timeout = 86_400

        func validate() throws {
            guard AppleTransferCommand.isTeamID(targetTeam) else {
                throw ValidationError("--target-team must be a team id: 10 characters of A-Z and 0-9")
            }
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            guard timeout >= 10 else { throw ValidationError("--timeout must be at least 10 seconds") }
        }

        func run() throws {
            let context = try Console.connect(connection)
            let client = try apple.client(context)
            guard client.settings.teamID != targetTeam else {
                throw ValidationError("--target-team is the sending team itself (\(targetTeam))")
            }
            let trail = AuditTrail(
                caller: try Console.caller(context), action: "apple-transfer-prepare", reason: reason,
                dryRun: change.dryRun)
            let details: [(String, JSONValue)] = [
                ("sendingTeam", .string(client.settings.teamID)), ("targetTeam", .string(targetTeam)),
                ("clientId", .string(client.settings.clientID)),
            ]
            if change.dryRun {
                try trail.read("would prepare", details)
            } else {
                try Terminal.confirm(
                    "Prepare every Apple identity in \(context.bucket) for the transfer to team \(targetTeam)?",
                    yes: change.yes)
                try trail.intent("record each Apple identity's transfer_sub for team \(targetTeam)", details)
            }
            let options = TransferPrepareOptions(
                batch: apple.batch, restart: restart, dryRun: change.dryRun, limit: limit)
            try AppleTransferCommand.perform(context, client, trail: trail, dryRun: change.dryRun, details: details) {
                (progress) throws(AccountError) in
                let result = try context.appleTransfer.prepareAppleTransfer(
                    team: targetTeam, api: AppleMigrationAdapter(client), options: options,
                    deadline: .after(milliseconds: Int64(timeout) * 1000), progress: progress)
                return (result.run, result.pass)
            }
        }
    }

    struct CompleteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "complete",
            abstract: "After the transfer: re-key every prepared Apple identity that has not signed in since.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeOptions
        @OptionGroup var apple: AppleKeyOptions
        @Option(help: "Why (the transfer's ticket), for the audit lines.") var reason: String?
        @Option(help: "Seconds this run may take; it stops in time and the next run continues.")
        var timeout = 86_400

        func run() throws {
            let context = try Console.connect(connection)
            let client = try apple.client(context)
            let team = client.settings.teamID
            let trail = AuditTrail(
                caller: try Console.caller(context), action: "apple-transfer-complete", reason: reason,
                dryRun: change.dryRun)
            let details: [(String, JSONValue)] = [
                ("recipientTeam", .string(team)), ("clientId", .string(client.settings.clientID)),
            ]
            if change.dryRun {
                try trail.read("would complete", details)
            } else {
                try Terminal.confirm(
                    "Re-key every prepared Apple identity in \(context.bucket) to team \(team)?", yes: change.yes)
                try trail.intent("re-key each prepared Apple identity not re-keyed yet to team \(team)", details)
            }
            try AppleTransferCommand.perform(context, client, trail: trail, dryRun: change.dryRun, details: details) {
                (progress) throws(AccountError) in
                let run = try context.appleTransfer.completeAppleTransfer(
                    team: team, api: AppleMigrationAdapter(client), batch: apple.batch, dryRun: change.dryRun,
                    deadline: .after(milliseconds: Int64(timeout) * 1000), progress: progress)
                return (run, nil)
            }
        }
    }

    static func isTeamID(_ text: String) -> Bool {
        text.utf8.count == 10
            && text.utf8.allSatisfy { ASCII.isDigit($0) || (ASCII.isAlphanumeric($0) && !ASCII.isLower($0)) }
    }
}

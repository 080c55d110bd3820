import AWSClients
import AccountDomain
import ArgumentParser
import PlatformSupport
import StrictJSON

/// Actions that read only: each still writes its audit line (an export is a disclosure).
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "The account an identity, UUID or purchase maps to.")
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "apple:<sub> | google:<sub> | firebase:<sub> | <uuid> | purchase:<originalTransactionId>")
    var who: String

    func run() throws {
        let (context, caller, uuid) = try Console.target(who, connection, action: "find")
        AuditLine(caller: caller, action: "find", serviceUserID: uuid, reason: nil, dryRun: false, outcome: "found")
            .write()
        if context.json {
            Console.printJSON(["serviceUserID": .string(uuid)])
        } else {
            Terminal.out(uuid)
        }
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Profile, providers, live sessions, purchases and entitlement, disabled and deletion state.")
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The account (as for find).") var who: String

    func run() throws {
        let (context, caller, uuid, inspection) = try Console.inspect(
            who, connection, action: "show", withObjectKeys: false, timeoutMilliseconds: 60_000)
        AuditLine(
            caller: caller, action: "show", serviceUserID: uuid, reason: nil, dryRun: false,
            outcome: inspection.exists ? "shown" : "not-found"
        ).write()
        let json = inspection.json(nowMs: Clock.nowMilliseconds(), forExport: false)
        if context.json { Console.printJSON(json) } else { ShowTable.lines(json).forEach(Terminal.out) }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Everything the service holds about the person, as JSON (GDPR Art. 15/20); no hashes, no secrets.")
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "The account (as for find).") var who: String
    @Option(help: "Write the export to this file (mode 0600) instead of standard output.") var out: String?
    @Flag(help: "Add the keys of the objects under users/<uuid>/ (not their content).") var withObjectKeys = false
    @Option(help: "Why (the support ticket), for the audit line.") var reason: String?

    func run() throws {
        let (_, caller, uuid, inspection) = try Console.inspect(
            who, connection, action: "export", withObjectKeys: withObjectKeys, timeoutMilliseconds: 300_000)
        let bytes = inspection.json(nowMs: Clock.nowMilliseconds(), forExport: true).serialized()
        if let out {
            try Terminal.writeFile(out, bytes + [10])
        } else {
            Terminal.out(String(decoding: bytes, as: UTF8.self))
        }
        AuditLine(
            caller: caller, action: "export", serviceUserID: uuid, reason: reason, dryRun: false, outcome: "exported",
            details: [("objectKeys", .int(Int64(inspection.objectKeys?.count ?? 0)))]
        ).write()
    }
}

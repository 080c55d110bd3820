import AWSClients
import AccountLinks
import AccountModel
import AccountOperator
import AccountSessions
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import StrictJSON

/// Actions that read only: each still writes its audit line before it shows anything (an export
/// is a disclosure), and shows nothing when the line cannot be kept.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "The account an identity, UUID or purchase maps to.")
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "apple:<sub> | google:<sub> | firebase:<sub> | <uuid> | purchase:<originalTransactionId>")
    var who: String

    func run() throws {
        let (context, trail, uuid) = try Console.target(who, connection, action: "find")
        try trail.read("found")
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
        let (context, trail, _, inspection) = try Console.inspect(
            who, connection, action: "show", reason: nil, withObjectKeys: false, timeoutMilliseconds: 60_000)
        try trail.read("shown")
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
    @Option(
        help:
            "Write the export to this file instead of standard output: created mode 0600 (replacing any file there), never through a symbolic link."
    )
    var out: String?
    @Flag(help: "Add the keys of the objects under users/<uuid>/ (not their content).") var withObjectKeys = false
    @Option(help: "Why (the support ticket), for the audit line.") var reason: String?

    func run() throws {
        let (_, trail, _, inspection) = try Console.inspect(
            who, connection, action: "export", reason: reason, withObjectKeys: withObjectKeys,
            timeoutMilliseconds: 300_000)
        let bytes = inspection.json(nowMs: Clock.nowMilliseconds(), forExport: true).serialized() + [10]
        var details: [(String, JSONValue)] = [("objectKeys", .int(Int64(inspection.objectKeys?.count ?? 0)))]
        guard let out else {
            try trail.read("exported", details)
            Terminal.write(fd: 1, String(decoding: bytes, as: UTF8.self))
            return
        }
        details.append(("file", .string(out)))
        let file: PrivateFile
        do throws(PrivateFile.Refusal) { file = try PrivateFile(out, bytes) } catch { throw Console.refused(error) }
        do { try trail.read("exported", details) } catch {
            file.discard()
            throw error
        }
        do throws(PrivateFile.Refusal) { try file.commit() } catch { throw Console.refused(error) }
    }
}

struct WhoamiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Who the credentials belong to (STS), and where the credentials and region were found.")
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let context = try Console.connect(connection)
        let caller = try Console.caller(context)
        let fields: [(String, JSONValue)] = [
            ("arn", .string(caller.arn)), ("account", .string(caller.account)),
            ("profile", .string(context.chain.profile)),
            ("credentials", .string(context.chain.credentialsSource)), ("region", .string(context.region)),
            ("regionFrom", .string(context.chain.regionSource)), ("bucket", .string(context.bucket)),
        ]
        if context.json {
            Console.printJSON(.object(JSONObject(fields)))
        } else {
            for (k, v) in fields { Terminal.out(k.padding(11) + (v.stringValue ?? "-")) }
        }
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
}

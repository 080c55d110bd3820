import AWSClients
import AccountDeletion
import AccountModel
import AccountOperator
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import StrictJSON

/// The operator's console (docs/operations.md): support requests answered through the same
/// account code the functions run, never by editing S3 by hand.
@main
struct AuthCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authctl",
        abstract:
            "Find, show, disable, sign out, export, delete and check accounts of the sign-in service; move Apple users along an app transfer; register Google's security events.",
        discussion: """
            An account is named by apple:<sub>, google:<sub>, firebase:<sub>, its UUID, or \
            purchase:<originalTransactionId>. Credentials, region and endpoints are read as the AWS CLI \
            reads them (environment, --profile / AWS_PROFILE); the bucket from --bucket or IDENTITY_BUCKET. \
            Exit status: 0 done, 1 failed, 2 not found, 3 check found breaks, 4 check incomplete, 64 usage.
            """,
        subcommands: [
            FindCommand.self, ShowCommand.self, SessionsCommand.self, DisableCommand.self, EnableCommand.self,
            ExportCommand.self, DeleteCommand.self, CheckCommand.self, AppleTransferCommand.self, WhoamiCommand.self,
            GoogleRiscCommand.self,
        ])
}

/// What the commands share: connecting, naming accounts, failing with a clear message.
enum Console {
    static func connect(_ options: ConnectionOptions) throws -> OperatorContext {
        do throws(ConfigurationError) { return try OperatorContext(options) } catch {
            throw ValidationError("\(error)")
        }
    }

    static func reference(_ text: String) throws -> AccountReference {
        guard let reference = AccountReference(text) else {
            throw ValidationError(
                "'\(text)' names no account: use apple:<sub>, google:<sub>, firebase:<sub>, a UUID or purchase:<id>")
        }
        return reference
    }

    /// The UUID of the account `who` names; exit 2 (after its audit line) when it names none:
    /// an unknown identity or purchase, a UUID that holds nothing, a mapping file naming such a UUID.
    static func resolve(_ who: String, _ context: OperatorContext, _ trail: AuditTrail) throws -> String {
        let reference = try reference(who)
        let found: (uuid: String?, mappedTo: String?)
        do throws(AccountError) {
            found = try context.operatorFlow.locate(reference, deadline: .after(milliseconds: 30_000))
        } catch { throw failure(error) }
        guard let uuid = found.uuid else {
            try trail.read("not-found", found.mappedTo.map { [("mappedTo", .string($0))] } ?? [])
            Terminal.err(
                "authctl: no account maps to \(who)"
                    + (found.mappedTo.map { " (its file names \($0), which holds nothing: run authctl check)" } ?? ""))
            throw ExitCode(ExitStatus.notFound)
        }
        trail.serviceUserID = uuid
        return uuid
    }

    /// What every command about one account starts with: connect, know the operator, resolve `who`.
    static func target(
        _ who: String, _ connection: ConnectionOptions, action: String, reason: String? = nil, dryRun: Bool = false
    ) throws -> (context: OperatorContext, trail: AuditTrail, uuid: String) {
        let context = try connect(connection)
        let trail = AuditTrail(caller: try caller(context), action: action, reason: reason, dryRun: dryRun)
        return (context, trail, try resolve(who, context, trail))
    }

    /// What `show` and `export` read: the `target`, then the account's inspection.
    static func inspect(
        _ who: String, _ connection: ConnectionOptions, action: String, reason: String?, withObjectKeys: Bool,
        timeoutMilliseconds: Int64
    ) throws -> (context: OperatorContext, trail: AuditTrail, uuid: String, inspection: AccountInspection) {
        let (context, trail, uuid) = try target(who, connection, action: action, reason: reason)
        do throws(AccountError) {
            let inspection = try context.operatorFlow.inspect(
                uuid, withObjectKeys: withObjectKeys, deadline: .after(milliseconds: timeoutMilliseconds))
            return (context, trail, uuid, inspection)
        } catch { throw failure(error) }
    }

    /// One change with its trail: the intent line (none, no change), `body`, then the outcome:
    /// `done` with what it did, or `failed` with the error and the account's state re-read
    /// (what was already done).
    static func change<T>(
        _ trail: AuditTrail, _ context: OperatorContext, intent: String,
        _ body: () throws(AccountError) -> (T, [(String, JSONValue)])
    ) throws -> (T, [(String, JSONValue)]) {
        try trail.intent(intent)
        do throws(AccountError) {
            let (value, details) = try body()
            trail.outcome("done", details)
            return (value, details)
        } catch {
            trail.outcome(
                "failed", [("error", .string(error.brief))] + stateAfter(trail.serviceUserID, context))
            throw failure(error)
        }
    }

    /// The account's state after a failed change, as the audit line's `stateAfter`.
    static func stateAfter(_ uuid: String?, _ context: OperatorContext) -> [(String, JSONValue)] {
        guard let uuid else { return [] }
        do throws(AccountError) {
            let i = try context.operatorFlow.inspect(
                uuid, withObjectKeys: false, deadline: .after(milliseconds: 30_000))
            return [("stateAfter", i.changeState(nowMs: Clock.nowMilliseconds()))]
        } catch {
            return [("stateAfter", .null), ("stateAfterError", .string(error.brief))]
        }
    }

    /// The operator's identity, before any change (no audit line, no change without it).
    static func caller(_ context: OperatorContext) throws -> CallerIdentity {
        do throws(AWSError) { return try context.operatorIdentity() } catch {
            Terminal.err(
                "authctl: STS GetCallerIdentity failed (\(error.kind)): no change is made without knowing who asks")
            throw ExitCode(ExitStatus.failed)
        }
    }

    /// An account-domain failure as one line on standard error and its exit status.
    static func failure(_ error: AccountError) -> ExitCode {
        let text: String
        switch error {
        case .accountNotFound: text = "no such account (never made, deleted, or purged)"
        case .conflict(let why): text = "the account kept changing (\(why)); run the command again"
        case .upstream(let aws): text = "AWS refused or failed: \(aws.code ?? String(describing: aws.kind))"
        case .corruptDocument(let key, let why): text = "unreadable document \(key): \(why)"
        default: text = "\(error)"
        }
        Terminal.err("authctl: \(text)")
        if case .accountNotFound = error { return ExitCode(ExitStatus.notFound) }
        return ExitCode(ExitStatus.failed)
    }

    /// A file that could not be written as authctl writes files: the reason, exit 1.
    static func refused(_ refusal: PrivateFile.Refusal) -> ExitCode {
        Terminal.err("authctl: \(refusal)")
        return ExitCode(ExitStatus.failed)
    }

    static func printJSON(_ value: JSONValue) { Terminal.out(value.serializedString()) }
}

import AWSClients
import AccountDomain
import ArgumentParser
import PlatformSupport
import StrictJSON

/// The operator's console (docs/operations.md): support requests answered through the same
/// account code the functions run, never by editing S3 by hand.
@main
struct AuthCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authctl",
        abstract: "Find, show, disable, sign out, export, delete and check accounts of the sign-in service.",
        discussion: """
            An account is named by apple:<sub>, google:<sub>, firebase:<sub>, its UUID, or \
            purchase:<originalTransactionId>. Credentials, region and endpoints are read as the AWS CLI \
            reads them (environment, --profile / AWS_PROFILE); the bucket from --bucket or IDENTITY_BUCKET.
            """,
        subcommands: [
            FindCommand.self, ShowCommand.self, SessionsCommand.self, DisableCommand.self, EnableCommand.self,
            ExportCommand.self, DeleteCommand.self, CheckCommand.self, GoogleRiscCommand.self,
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

    /// The UUID `who` names; exits 1 with a message when no account maps to it.
    static func resolve(
        _ who: String, _ context: OperatorContext, caller: CallerIdentity, action: String
    ) throws -> String {
        let reference = try reference(who)
        let found: String?
        do throws(AccountError) {
            found = try context.service.resolve(reference, deadline: .after(milliseconds: 30_000))
        } catch { throw failure(error) }
        guard let uuid = found else {
            AuditLine(
                caller: caller, action: action, serviceUserID: nil, reason: nil, dryRun: false, outcome: "not-found"
            )
            .write()
            Terminal.err("authctl: no account maps to \(who)")
            throw ExitCode(1)
        }
        return uuid
    }

    /// What every command about one account starts with: connect, know the operator, resolve `who`.
    static func target(
        _ who: String, _ connection: ConnectionOptions, action: String
    ) throws -> (context: OperatorContext, caller: CallerIdentity, uuid: String) {
        let context = try connect(connection)
        let caller = try caller(context)
        return (context, caller, try resolve(who, context, caller: caller, action: action))
    }

    /// What `show` and `export` read: the `target`, then the account's inspection.
    static func inspect(
        _ who: String, _ connection: ConnectionOptions, action: String, withObjectKeys: Bool, timeoutMilliseconds: Int64
    ) throws -> (context: OperatorContext, caller: CallerIdentity, uuid: String, inspection: AccountInspection) {
        let (context, caller, uuid) = try target(who, connection, action: action)
        do throws(AccountError) {
            let inspection = try context.service.inspect(
                uuid, withObjectKeys: withObjectKeys, deadline: .after(milliseconds: timeoutMilliseconds))
            return (context, caller, uuid, inspection)
        } catch { throw failure(error) }
    }

    /// The operator's identity, before any change (no audit line, no change without it).
    static func caller(_ context: OperatorContext) throws -> CallerIdentity {
        do throws(AWSError) { return try context.operatorIdentity() } catch {
            Terminal.err(
                "authctl: STS GetCallerIdentity failed (\(error.kind)): no change is made without knowing who asks")
            throw ExitCode(1)
        }
    }

    /// An account-domain failure as one line on standard error and exit code 1.
    static func failure(_ error: AccountError) -> ExitCode {
        let text: String
        switch error {
        case .accountNotFound: text = "no such account (never made, or deleted and purged)"
        case .conflict(let why): text = "the account kept changing (\(why)); run the command again"
        case .upstream(let aws): text = "AWS refused or failed: \(aws.code ?? String(describing: aws.kind))"
        case .corruptDocument(let key, let why): text = "unreadable document \(key): \(why)"
        default: text = "\(error)"
        }
        Terminal.err("authctl: \(text)")
        return ExitCode(1)
    }

    static func printJSON(_ value: JSONValue) { Terminal.out(value.serializedString()) }
}

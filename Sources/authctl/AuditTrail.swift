import AWSClients
import AccountDeletion
import AccountModel
import AccountOperator
import AccountStore
import AccountTransfer
import ArgumentParser
import PlatformSupport
import StrictJSON

/// One command's trail (contract v4, "Operator actions"): an action that changes nothing writes
/// one `read` line before it shows anything; a change writes its `intent` before the first write
/// and its `outcome` after. A line AUTHCTL_AUDIT_LOG cannot take stops the action before it
/// shows or changes anything (an action without its trail does not happen); an outcome it cannot
/// take (the change is made by then) makes the command exit 1 after saying so.
final class AuditTrail {
    let caller: CallerIdentity
    let action: String
    var serviceUserID: String?
    var reason: String?
    var dryRun: Bool
    /// An outcome line the log did not take: the command ends with exit 1.
    private(set) var outcomeLost = false

    init(caller: CallerIdentity, action: String, serviceUserID: String? = nil, reason: String? = nil, dryRun: Bool) {
        self.caller = caller
        self.action = action
        self.serviceUserID = serviceUserID
        self.reason = reason
        self.dryRun = dryRun
    }

    private func line(_ phase: AuditLine.Phase, _ outcome: String?, _ details: [(String, JSONValue)]) -> AuditLine {
        AuditLine(
            caller: caller, action: action, serviceUserID: serviceUserID, reason: reason, dryRun: dryRun,
            phase: phase, outcome: outcome, details: details)
    }

    /// The one line of an action that changes nothing; exit 1, nothing shown, when it cannot be kept.
    func read(_ outcome: String, _ details: [(String, JSONValue)] = []) throws {
        guard line(.read, outcome, details).write() else { throw AuditTrail.refused("nothing is shown") }
    }

    /// Before the first write; exit 1, nothing changed, when it cannot be kept.
    func intent(_ change: String, _ details: [(String, JSONValue)] = []) throws {
        guard line(.intent, nil, [("change", .string(change))] + details).write() else {
            throw AuditTrail.refused("nothing was changed")
        }
    }

    /// After the change: `done` or `failed`, with what it did or the state it left.
    func outcome(_ outcome: String, _ details: [(String, JSONValue)] = []) {
        if !line(.outcome, outcome, details).write() { lose() }
    }

    /// The end of a run of changes (`check --repair`).
    func summary(_ outcome: String, _ details: [(String, JSONValue)] = []) {
        if !line(.summary, outcome, details).write() { lose() }
    }

    /// Throws exit 1 when an outcome line was lost (call last).
    func finish() throws { if outcomeLost { throw ExitCode(ExitStatus.failed) } }

    private func lose() {
        outcomeLost = true
        Terminal.err("authctl: the change was made but AUTHCTL_AUDIT_LOG did not take its outcome (the line above)")
    }

    private static func refused(_ what: String) -> ExitCode {
        Terminal.err(
            "authctl: AUTHCTL_AUDIT_LOG cannot be appended to: \(what) (an action without its trail does not run)")
        return ExitCode(ExitStatus.failed)
    }
}

/// authctl's exit statuses (docs/operations.md, "Exit status").
enum ExitStatus {
    static let done: Int32 = 0
    /// AWS refused or failed, the account kept changing, the trail could not be written.
    static let failed: Int32 = 1
    /// The name (identity, UUID, purchase) or the session id names nothing.
    static let notFound: Int32 = 2
    /// `check` found breaks it did not repair.
    static let breaksLeft: Int32 = 3
    /// `check` could not check everything (a listing cut or failing, documents unread).
    static let incomplete: Int32 = 4
}

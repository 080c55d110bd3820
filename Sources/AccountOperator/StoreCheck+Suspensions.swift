import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountStore
import AccountSuspensions
import PlatformSupport

/// `check` over Google's suspensions (issue 25): `suspensions/google/` is listed and every record
/// read (one per Google identity Google ever reported: few), and each account's view carries the
/// records of the Google identities it lists, judged by `AccountCheckView.findings`: the entry must
/// say what the record says. A disagreement is an event that stopped between its two writes; its
/// repair is the event's own second write (`applySuspension`), from the record re-read.
extension StoreCheck {
    /// Lists and reads every suspension record into the index. An unreadable one of an identity
    /// no account lists is a finding here (the account's view reports the others).
    package func readSuspensions(
        _ index: inout CheckIndex, _ options: StoreCheckOptions, _ report: inout StoreCheckReport, deadline: Deadline,
        progress: (String) -> Void
    ) {
        let prefix = AccountKeys.suspensionsPrefix(.google)
        index.suspensionsComplete = walkListing(prefix, options, &report, deadline: deadline, progress: progress) {
            page, report in
            let keys = page.keys.filter { $0.hasSuffix(".json") }
            for (key, result) in store.readEach(keys, deadline: deadline) {
                switch result {
                case .failure(let e): report.noteUnchecked("GET \(key): \(e.brief)")
                case .success(let object):
                    let sub = String(key.dropFirst(prefix.utf8.count).dropLast(".json".utf8.count))
                    let record = store.stored(object, key: key, IdentitySuspension.init(json:))
                    if !record.isAbsent { index.suspensions[sub] = record }
                }
            }
            report.suspensions = index.suspensions.count
        }
        for (sub, record) in index.suspensions.sorted(by: { $0.key < $1.key })
        where index.identities[AccountKeys.identity(.google, sub)] == nil {
            if case .unreadable(let why) = record {
                var f = StoreFinding(
                    kind: .unreadableDocument, serviceUserID: "", key: AccountKeys.suspension(.google, sub))
                f.note = why
                report.findings.append(f)
            }
        }
    }

    /// The suspension record keys of the Google identities a view lists.
    package static func suspensionKeys(_ view: AccountCheckView) -> [String] {
        view.listedGoogleSubjects.map { AccountKeys.suspension(.google, $0) }
    }

    /// The repair of `suspension-not-applied`: the record as re-read, applied to the entry.
    package func repairSuspensionFinding(
        _ f: StoreFinding, _ view: AccountCheckView, deadline: Deadline
    ) throws(AccountError)
        -> String?
    {
        let sub = String(f.key.dropFirst(AccountKeys.suspensionsPrefix(.google).utf8.count).dropLast(5))
        guard let record = view.suspensions[sub]?.value else { return "the record is gone or unreadable" }
        _ = try suspensions.applySuspension(
            record, to: store.loadAccount(f.serviceUserID, deadline: deadline), provider: .google, id: sub,
            endingSessions: record.suspended, deadline: deadline)
        return nil
    }
}

import AWSClients
import PlatformSupport

/// `check` over Google's suspensions (issue 25): every record is read (they are few: one per
/// Google identity Google ever reported), and the entry of the account holding that identity
/// must say the same. A disagreement is an event that stopped between its two writes; the repair
/// is the event's own second write (`applySuspension`), from the record as it is re-read then.
extension AccountService {
    func readSuspensions(_ keys: [String], into s: inout StoreSnapshot, deadline: Deadline) throws(AccountError) {
        let prefix = AccountKeys.suspensionsPrefix(.google)
        for (key, object) in try getAll(keys, deadline: deadline) {
            guard let object, key.hasSuffix(".json") else { continue }
            let sub = String(key.dropFirst(prefix.utf8.count).dropLast(".json".utf8.count))
            do throws(AccountError) {
                s.suspensions[sub] = .some(try suspension(object, .google, sub))
            } catch {
                s.suspensions[sub] = .some(nil)
            }
        }
    }

    func suspensionFindings(in s: StoreSnapshot) -> [StoreFinding] {
        var out: [StoreFinding] = []
        for (sub, record) in s.suspensions.sorted(by: { $0.key < $1.key }) {
            let key = AccountKeys.suspension(.google, sub)
            guard let record else {
                out.append(StoreFinding(kind: .suspensionUnreadable, serviceUserID: "", key: key))
                continue
            }
            guard let m = s.identities[AccountKeys.identity(.google, sub)], let doc = s.providers[m.uuid],
                !doc.isDeleted, let i = doc.index(of: .google, id: sub)
            else { continue }
            let entry = doc.providers[i].suspension
            if !record.agrees(with: entry) && record.supersedes(entry) {
                out.append(StoreFinding(kind: .suspensionNotApplied, serviceUserID: m.uuid, key: key))
            }
        }
        return out
    }

    /// The repair: the record re-read, applied to the entry as Google's event would have.
    func repairSuspension(_ f: StoreFinding, deadline: Deadline) throws(AccountError) -> String? {
        let sub = String(f.key.dropFirst(AccountKeys.suspensionsPrefix(.google).utf8.count).dropLast(5))
        guard let record = try suspension(backend.get(f.key, deadline: deadline), .google, sub) else {
            return "the record is gone"
        }
        let account = try loadAccount(f.serviceUserID, deadline: deadline)
        _ = try applySuspension(
            record, to: account, provider: .google, id: sub, endingSessions: record.suspended, deadline: deadline)
        return nil
    }
}

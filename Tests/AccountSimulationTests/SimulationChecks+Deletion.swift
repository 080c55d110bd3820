import AccountTestSupport
import StrictJSON
import TokenVerification

/// Issue 18's deletion invariants, checked before any repairing sign-in (which would repair, and
/// so hide, what the service left behind) as well as after:
/// - no identity file names a deleted UUID once its deletion answered: right after the run when
///   no fault was injected (a racing link cleans up after itself), and after the fault-free
///   scheduled runs in every run (a link that died after writing its file is swept then);
/// - every healthy deletion is through both passes after those runs, its prefix empty of versions
///   and of incomplete multipart uploads, whatever a poisoned record does (`finishDeletions`);
/// - Apple's `account-delete` is never answered with a client error (Apple does not retry those:
///   the event would be lost);
/// - no deletion commits while the account lists a provider other than Apple unless the user or
///   an operator asked for it before the commit (issue 23, defect 2: Apple's event re-checks "last
///   provider" inside the commit, whoever commits).
extension SimulationChecks {
    mutating func deletedAccountsUnmapped(phase: String, answeredOnly: Bool, strict: Bool) {
        guard strict else { return }
        let answered = Set(
            world.records.filter { $0.name == "delete" && $0.succeeded }.compactMap { $0.session?.uuid })
        let deleted = answeredOnly ? deletedAccounts.intersection(answered) : deletedAccounts
        for uuid in deleted.sorted() {
            for key in s3.keys where key.hasPrefix("identities/") && s3.text(key) == uuid {
                // An app transfer's re-key file written while the account was being deleted, whose
                // process died before taking it back: the deletion never saw that `sub`; the next
                // sign-in with it, or check, removes it (docs/decisions/accounts-and-sessions.md).
                if !answeredOnly && world.scheduler.faultCount > 0 && isRekeyFile(key) { continue }
                fail("\(phase): \(key.debugDescription) names deleted account \(uuid.prefix(8))")
            }
            guard !answeredOnly else { continue }
            let prefix = AccountKeys.userPrefix(uuid)
            if let done = s3.json(AccountKeys.deletion(uuid))?["secondPassDoneAt"], !done.isNull {
                let left = s3.versions(under: prefix)
                if left > 0 { fail("\(phase): deleted account \(uuid.prefix(8)) still has \(left) versions") }
                let uploads = s3.uploads.filter { $0.key.hasPrefix(prefix) }.count
                if uploads > 0 { fail("\(phase): deleted account \(uuid.prefix(8)) still has \(uploads) uploads") }
            }
        }
    }

    func isRekeyFile(_ key: String) -> Bool {
        s3.current(key)?.metadata.contains { $0.0 == AccountKeys.transferSubMetadata } ?? false
    }

    mutating func appleEventsNeverDropped() {
        for r in world.records where r.name.hasPrefix("apple ") {
            guard case .failure(let e) = r.outcome else { continue }
            switch e {
            case .lastProvider, .providerNotLinked, .sessionInvalid, .providerAlreadyLinked:
                fail("op \(r.id) \(r.name) answered \(e): a client error, which Apple does not retry")
            default: continue
            }
        }
    }

    mutating func appleDeletionsSpareLinkedAccounts() {
        func listed(_ body: [UInt8]?) -> (types: [String], deleted: Bool)? {
            guard let body, let json = try? JSONParser.parse(body), let doc = StoredAccount(json: json) else {
                return nil
            }
            return (doc.active.map(\.type), !(json["deletedAt"]?.isNull ?? true))
        }
        for w in world.scheduler.writes where w.key.hasSuffix("/account/providers.json") {
            guard let after = listed(w.after), after.deleted, !(listed(w.before)?.deleted ?? false),
                after.types != [IdentityProvider.apple.rawValue]
            else { continue }
            let uuid = String(w.key.dropFirst("users/".count).prefix(36))
            let asked = world.records.contains { r in
                r.startMs <= w.atMs && ((r.name == "delete" && r.session?.uuid == uuid) || r.name == "opDelete \(uuid)")
            }
            if !asked {
                fail(
                    "op \(w.op) committed the deletion of \(uuid.prefix(8)) listing \(after.types), which only Apple's account-delete asked for"
                )
            }
        }
    }
}

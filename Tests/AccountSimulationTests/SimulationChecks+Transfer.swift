import AccountTestSupport

/// The app transfer's invariants (contract v4), from the records and the stored JSON:
/// - a sign-in with a transferred Apple identity whose prepared transfer named a live account at
///   its start reaches that account (never a second one), unless an unlink, a deletion, a disable
///   or a link of that identity ran at the same time (then "the one the sub maps to" decides);
/// - a sign-in with the new identity, after the repairing step, reaches the account its prepared
///   transfer names (`transferOwner`, used by `expectedOwner`);
/// - after a fault-free `check --repair`, every transfer file names a live account whose Apple
///   link is prepared for it and not re-keyed, every such transfer has its file, and no re-key is
///   left half cleaned up.
extension SimulationChecks {
    mutating func transferSignIns() {
        let interfering = [
            "unlink", "delete", "opDelete", "apple account-delete", "opDisable", "link apple:b", "scheduled",
        ]
        for r in world.records where r.succeeded {
            guard let target = r.transferTarget else { continue }
            guard r.reached != target else { continue }
            let raced = world.records.contains { x in
                x.id != r.id && x.startMs <= r.endMs && x.endMs >= r.startMs
                    && interfering.contains { x.name.hasPrefix($0) }
            }
            if !raced {
                fail(
                    "op \(r.id) \(r.name): reached \(r.reached.map { String($0.prefix(8)) } ?? "-"), not the account its prepared transfer names (\(target.prefix(8))): two accounts"
                )
            }
        }
    }

    /// For an identity without a file: the account a sign-in with its `transfer_sub` re-keys, if any.
    func transferOwner(_ id: SimIdentity) -> String? {
        guard let t = id.transferSub, let uuid = s3.text(AccountKeys.appleTransfer(t)),
            !deletedAccounts.contains(uuid), s3.current(AccountKeys.deletion(uuid)) == nil,
            let doc = providers(uuid),
            doc.active.contains(where: { $0.transfers.contains { $0.0 == t && $0.1 == nil } })
        else { return nil }
        return uuid
    }

    mutating func transferFilesSettled() {
        let report = world.settleService().storeCheck.checkStore(StoreCheckOptions(repair: true), deadline: .none)
        let transferKinds: Set<StoreFinding.Kind> = [
            .unfinishedRekey, .transferNamesMissingAccount, .transferNamesDeletedAccount, .staleTransferFile,
            .preparedTransferWithoutFile,
        ]
        for f in report.findings where f.repaired != true && transferKinds.contains(f.kind) {
            fail("the final check --repair left \(f.kind.rawValue) \(f.key): \(f.note ?? "-")")
        }
        for key in s3.keys where key.hasPrefix(AccountKeys.appleTransferPrefix) {
            let t = String(key.dropFirst(AccountKeys.appleTransferPrefix.count))
            guard let uuid = s3.text(key) else { continue }
            guard !deletedAccounts.contains(uuid), let doc = providers(uuid) else {
                fail("after check --repair: \(key) names a deleted or missing account")
                continue
            }
            if !doc.active.contains(where: { $0.transfers.contains { $0.0 == t && $0.1 == nil } }) {
                fail("after check --repair: \(key) names an account whose Apple link is not prepared for it")
            }
        }
        for key in s3.keys where key.hasSuffix("/account/providers.json") {
            let uuid = String(key.dropFirst("users/".count).prefix(36))
            guard !deletedAccounts.contains(uuid), let doc = providers(uuid) else { continue }
            for link in doc.active {
                for (t, rekeyedFrom) in link.transfers {
                    if rekeyedFrom != nil {
                        fail("after repair: account \(uuid.prefix(8)) has a re-key not cleaned up")
                    }
                    if rekeyedFrom == nil && s3.text(AccountKeys.appleTransfer(t)) != uuid {
                        fail("after check --repair: account \(uuid.prefix(8)) is prepared for \(t) without its file")
                    }
                }
            }
        }
    }
}

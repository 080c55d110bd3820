import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountStore
import PlatformSupport

/// `check --repair` for app transfers (contract v4), through the paths the re-key and the
/// operator's `prepare` take: an unfinished re-key is finished (`rekeyApple`, `finishRekeys`); a
/// transfer file that nothing signs in through any more is removed exactly as read; a prepared
/// transfer's missing file is created (create-only, as `prepare` writes it).
extension StoreCheck {
    package func repairTransferNote(
        _ f: StoreFinding, _ view: AccountCheckView, deadline: Deadline
    ) throws(AccountError) -> String? {
        switch f.kind {
        case .unfinishedRekey where f.key == AccountKeys.providers(f.serviceUserID):
            _ = try links.finishRekeys(store.loadAccount(f.serviceUserID, deadline: deadline), deadline: deadline)
        case .unfinishedRekey:
            guard let m = view.identityFiles[f.key], let transferSub = m.transferSub,
                let (_, sub) = AccountStore.identity(ofKey: f.key)
            else { return "the identity file is gone" }
            switch try links.rekeyApple(
                uuid: m.uuid, transferSub: transferSub, newSub: sub, email: nil, refuseDisabled: false, file: m,
                deadline: deadline)
            {
            case .rekeyed: break
            case .ignored, .subTaken:  // stale by now
                try store.discard(m, key: f.key, session: nil, deadline: deadline)
            }
        case .transferNamesMissingAccount, .transferNamesDeletedAccount, .staleTransferFile:
            guard let m = view.transferFiles[f.key] else { return "the transfer file is gone" }
            try store.discard(m, key: f.key, session: nil, deadline: deadline)
        case .preparedTransferWithoutFile:
            if let other = view.preparedFiles[f.key]?.value, other.uuid != f.serviceUserID {
                return "the transfer file names account \(other.uuid): a person must decide which account it moves"
            }
            let put = S3Put(
                key: f.key, body: Array(f.serviceUserID.utf8), contentType: "text/plain", condition: .ifNoneMatch)
            if case .preconditionFailed = try store.backend.put(put, deadline: deadline) {
                return "a transfer file is there now: check again"
            }
        default:
            return "not a transfer finding"
        }
        return nil
    }
}

import AccountLinks
import AccountModel
import AccountStore

/// `check`'s judgment of an account's app-transfer files (contract v4), by the rules sign-in and
/// the re-key follow: a transfer file counts only while the account's Apple link is prepared for
/// it; a re-key committed in providers.json is cleaned up by whoever reads it next.
extension AccountCheckView {
    package func transferFindings(_ add: (StoreFinding.Kind, String, String?) -> Void) {
        for key in transferFiles.keys.sorted() {
            let transferSub = String(key.dropFirst(AccountKeys.appleTransferPrefix.count))
            switch providers {
            case .unreadable: continue  // reported already
            case .absent:
                if deletion.isUnreadable || profile.isUnreadable { continue }
                if deletion.value?.0.committedAtMs != nil {
                    add(.transferNamesDeletedAccount, key, nil)
                } else if profile.isAbsent {
                    add(.transferNamesMissingAccount, key, nil)
                }
            case .present(let (doc, _)):
                if doc.isDeleted {
                    add(.transferNamesDeletedAccount, key, nil)
                } else if doc.link(preparedFor: transferSub) == nil {
                    add(.staleTransferFile, key, nil)
                }
            }
        }
        guard let (doc, _) = providers.value, !doc.isDeleted else { return }
        if !doc.rekeysToClean.isEmpty {
            add(.unfinishedRekey, AccountKeys.providers(uuid), "committed, not cleaned up")
        }
        for key in preparedKeys {
            switch preparedFiles[key] ?? .absent {
            case .unreadable(let why): add(.unreadableDocument, key, why)
            case .absent: add(.preparedTransferWithoutFile, key, nil)
            case .present(let file):
                if file.uuid != uuid { add(.preparedTransferWithoutFile, key, "the file names another account") }
            }
        }
    }
}

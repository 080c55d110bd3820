import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport
import TokenVerification

extension SignInFlow {
    /// A sign-in refused by the record still repairs what it met, as every sign-in does (best
    /// effort): the holding account's entry takes the record's state (which finishes an event
    /// that stopped between its two writes), a half-made account is completed and a link that
    /// stopped before listing the identity is listed (both suspended), and a leftover identity
    /// file is removed.
    package func repairSuspension(
        _ record: IdentitySuspension, of file: IdentityMapping?, _ identity: VerifiedIdentity, deadline: Deadline
    ) {
        guard let file else { return }
        let key = AccountKeys.identity(identity.provider, identity.subject)
        do throws(AccountError) {
            let docs = try store.readAccount(file.uuid, deadline: deadline)
            var account: Account
            if let loaded = try store.account(uuid: file.uuid, profile: docs.profile, providers: docs.providers) {
                account = loaded
            } else {
                // Half-made (a sign-up that stopped after its identity file): completed, as any
                // sign-in completes it, then suspended below.
                if try links.isCommittedDeletion(file.uuid, deadline: deadline) { return }
                account = try links.complete(
                    file, identity, fullName: nil, profile: docs.profile, providers: docs.providers, deadline: deadline)
            }
            if account.providers.isDeleted { return }
            switch account.providers.state(of: identity.provider, id: identity.subject, linkID: file.linkID) {
            case .active: break
            case .pending, .legacyUnlisted:
                guard let completed = try links.completeLink(account, file, identity, deadline: deadline) else {
                    try store.discard(file, key: key, session: nil, deadline: deadline)
                    return
                }
                account = completed
            case .stale:
                try store.discard(file, key: key, session: nil, deadline: deadline)
                return
            case .rekeying:
                return  // an Apple app transfer's re-key (no transfer_sub is passed): never a Google file
            }
            _ = try suspensions.applySuspension(
                record, to: account, provider: identity.provider, id: identity.subject, deadline: deadline)
        } catch {
            return  // the refusal stands; the next sign-in or `authctl check` repairs it
        }
    }

    /// Runs `body`; when it refuses the sign-in (the identity suspended, the account disabled),
    /// the session this sign-in wrote in the same round is erased (every version) before the
    /// refusal is answered.
    package func refusingSession<T>(
        _ session: SessionRecord, deadline: Deadline, _ body: () throws(AccountError) -> T
    ) throws(AccountError) -> T {
        do throws(AccountError) {
            return try body()
        } catch {
            switch error {
            case .identitySuspended, .accountDisabled:
                try store.erase(AccountKeys.session(session.serviceUserID, session.sessionID), deadline: deadline)
            default: break
            }
            throw error
        }
    }
}

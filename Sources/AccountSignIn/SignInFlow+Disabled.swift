import AWSClients
import AccountModel
import AccountStore
import PlatformSupport
import TokenVerification

/// ACCOUNT_DISABLED at sign-in (AccountStore+Disabled.swift has the rule for every action).
extension SignInFlow {
    /// Sign-in's second round wrote the new session record alongside reading providers.json; for
    /// a disabled account whose listed (or pending) identity this is, that record is purged again,
    /// every version, so the refused sign-in leaves nothing behind. True: refuse the sign-in.
    package func refuseIfDisabled(
        _ providers: S3Object?, _ m: IdentityMapping, _ identity: VerifiedIdentity, session: SessionRecord,
        deadline: Deadline
    ) throws(AccountError) -> Bool {
        guard let providers else { return false }
        let doc = try decodeDocument(
            providers.body, key: AccountKeys.providers(m.uuid), ProvidersDocument.init(json:))
        guard doc.isActiveButDisabled,
            doc.state(of: identity.provider, id: identity.subject, linkID: m.linkID, transferSub: m.transferSub)
                != .stale
        else { return false }
        try store.erase(AccountKeys.session(session.serviceUserID, session.sessionID), deadline: deadline)
        return true
    }
}

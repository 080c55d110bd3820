import AWSClients
import AccountModel

/// ACCOUNT_DISABLED (docs/API.md, docs/operations.md). The flag is `disabled` in providers.json,
/// which sign-in (its second round), refresh, sign-out and every auth-link action already read, so
/// the check costs no request on those paths. Apple's notifications and the scheduled run never
/// look at it; the operator's own actions (revoke, delete, enable) do not either.
///
/// Every one that begins after the disable answers ACCOUNT_DISABLED and changes nothing. One that
/// began before may still finish only if it committed before the disable: link (its claim and its
/// activation), unlink and claimPurchase (its listing, written before its claim file) re-check the
/// flag inside their committing conditional write of providers.json (`refuseIfDisabled`), which
/// a disable changes, so a disable stored after their read makes them read again and refuse. A
/// link refused at its activation retires its claim and deletes its file (`withdrawLink`). Sign-in's
/// own refusal, which also takes back the session record it wrote: `SignInFlow+Disabled.swift`.
extension AccountStore {
    /// Whether `providers` (as read for `uuid`) is disabled and not deleted.
    package func isActiveButDisabled(_ providers: S3Object?, uuid: String) throws(AccountError) -> Bool {
        guard let providers else { return false }
        return try decodeDocument(providers.body, key: AccountKeys.providers(uuid), ProvidersDocument.init(json:))
            .isActiveButDisabled
    }

}

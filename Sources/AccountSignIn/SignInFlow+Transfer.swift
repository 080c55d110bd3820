import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import TokenVerification

/// Sign-in after an app transfer (contract v4, "An app moved to another Apple developer team"):
/// an Apple token whose `sub` has no identity file but whose `transfer_sub` names a prepared
/// transfer re-keys that account's Apple link (`rekeyApple`) and signs in as that account.
extension SignInFlow {
    package enum TransferSignIn {
        case signedIn(SignInOutcome)
        /// No transfer applies: sign in (or up) as for any identity without a file.
        case ignored
        /// The `sub` has an identity file now (another device's re-key, or another account's
        /// sign-up): read it again and sign in with what it names.
        case mapped
    }

    /// The transfer path of a sign-in whose identity file at `key` is missing. `isNewUser` is
    /// false whatever the intent: the account is the user's existing one.
    package func signInThroughTransfer(
        _ identity: VerifiedIdentity, key: String, fullName: String?, device: String?, deadline: Deadline
    ) throws(AccountError) -> TransferSignIn {
        guard identity.provider == .apple, let transferSub = identity.transferSub else { return .ignored }
        let transferKey = AccountKeys.appleTransfer(transferSub)
        guard let transfer = try store.mapping(store.backend.get(transferKey, deadline: deadline), key: transferKey)
        else {
            return .ignored
        }
        switch try links.rekeyApple(
            uuid: transfer.uuid, transferSub: transferSub, newSub: identity.subject, email: identity.email,
            refuseDisabled: true, deadline: deadline)
        {
        case .ignored: return .ignored
        case .subTaken: return .mapped
        case .rekeyed(_, let file):
            switch try signInExisting(
                file, key: key, identity, intent: .auto, fullName: fullName, device: device, deadline: deadline)
            {
            case .signedIn(var outcome):
                outcome.isNewUser = false
                outcome.rekeyed = true
                return .signedIn(outcome)
            case .stale, .reread: return .mapped  // unlinked, deleted or re-keyed right after: start over
            }
        }
    }

}

import AWSClients
import PlatformSupport
import TokenVerification

/// Sign-in after an app transfer (contract v4, "An app moved to another Apple developer team"):
/// an Apple token whose `sub` has no identity file but whose `transfer_sub` names a prepared
/// transfer re-keys that account's Apple link (`rekeyApple`) and signs in as that account.
extension AccountService {
    enum TransferSignIn {
        case signedIn(SignInOutcome)
        /// No transfer applies: sign in (or up) as for any identity without a file.
        case ignored
        /// The `sub` has an identity file now (another device's re-key, or another account's
        /// sign-up): read it again and sign in with what it names.
        case mapped
    }

    /// The transfer path of a sign-in whose identity file at `key` is missing. `isNewUser` is
    /// false whatever the intent: the account is the user's existing one.
    func signInThroughTransfer(
        _ identity: VerifiedIdentity, key: String, fullName: String?, device: String?, deadline: Deadline
    ) throws(AccountError) -> TransferSignIn {
        guard identity.provider == .apple, let transferSub = identity.transferSub else { return .ignored }
        let transferKey = AccountKeys.appleTransfer(transferSub)
        guard let transfer = try mapping(backend.get(transferKey, deadline: deadline), key: transferKey) else {
            return .ignored
        }
        switch try rekeyApple(
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
            case .stale: return .mapped  // unlinked or deleted right after: start over
            }
        }
    }

    /// Finishes the re-key that the identity file `m` (`LinkState.rekeying`) was written for, with
    /// the signing-in token's email. Nil when it no longer applies (the caller discards the file).
    func finishRekey(
        _ m: IdentityMapping, _ identity: VerifiedIdentity, deadline: Deadline
    ) throws(AccountError) -> Account? {
        guard let transferSub = m.transferSub else { return nil }
        switch try rekeyApple(
            uuid: m.uuid, transferSub: transferSub, newSub: identity.subject, email: identity.email,
            refuseDisabled: true, file: m, deadline: deadline)
        {
        case .rekeyed(let account, _): return account
        case .ignored, .subTaken: return nil
        }
    }

    /// A sign-in that meets a re-key committed but not cleaned up finishes the clean-up; a failure
    /// there leaves it for the next one and does not fail the sign-in.
    func finishRekeysQuietly(_ account: Account, deadline: Deadline) -> Account {
        guard !account.providers.rekeysToClean.isEmpty else { return account }
        do throws(AccountError) { return try finishRekeys(account, deadline: deadline) } catch { return account }
    }
}

/// What to tell the user, by situation; the app words it.
public enum UserNotice: Sendable, Equatable {
    /// `ACCOUNT_NOT_FOUND` on `intent: signin`: offer sign-up or another provider.
    case noAccountForThisSignIn
    /// `ACCOUNT_ALREADY_EXISTS` on `intent: signup`: sign in instead.
    case accountAlreadyExists
    /// The provider identity belongs to another account.
    case providerBelongsToAnotherAccount
    /// The provider is not linked any more: refresh the account screen.
    case providerNotLinked
    /// Unlinking would leave no way to sign in.
    case lastProvider
    /// "Sign in with the account that made the purchase."
    case purchaseBelongsToOtherAccount
    /// The purchase did not verify: do not grant it.
    case purchaseNotValid
    /// An operator disabled the account: contact support.
    case accountDisabled
    /// `IDENTITY_SUSPENDED`: Google reported this Google account hijacked or disabled. Offer the
    /// account's other provider (Sign in with Apple), or tell the user to secure their Google
    /// account; it works again once Google reports it enabled. Nothing was signed out.
    case identitySuspended
}

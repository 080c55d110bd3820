package dev.signinbackend.client;

/** What to tell the user when the recommendation is {@link Recommendation#TELL_USER}. */
public enum UserNotice {
    /** ACCOUNT_NOT_FOUND: no account uses this sign-in; offer sign-up or another provider. */
    NO_ACCOUNT_FOR_THIS_SIGN_IN,
    /** ACCOUNT_ALREADY_EXISTS: sign in instead of signing up. */
    ACCOUNT_ALREADY_EXISTS,
    /** PROVIDER_ALREADY_LINKED: that Apple or Google identity belongs to another account. */
    PROVIDER_BELONGS_TO_ANOTHER_ACCOUNT,
    /** PROVIDER_NOT_LINKED: the account has no such provider; refresh the account screen. */
    PROVIDER_NOT_LINKED,
    /** LAST_PROVIDER: link another provider before removing this one. */
    LAST_PROVIDER,
    /** PURCHASE_BELONGS_TO_OTHER_ACCOUNT: "sign in with the account that made the purchase". */
    PURCHASE_BELONGS_TO_OTHER_ACCOUNT,
    /** INVALID_PURCHASE: do not grant; report. */
    PURCHASE_NOT_VALID,
    /** ACCOUNT_DISABLED: an operator disabled the account; contact support (already signed out). */
    ACCOUNT_DISABLED,
    /**
     * IDENTITY_SUSPENDED: Google reported this Google identity hijacked or disabled; offer the
     * account's other provider, or tell the user to secure their Google account.
     */
    IDENTITY_SUSPENDED
}

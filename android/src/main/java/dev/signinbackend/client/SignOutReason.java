package dev.signinbackend.client;

/** Why the session ended. */
public enum SignOutReason {
    /** Nothing stored at launch. */
    NO_SESSION,
    /** {@code signOut()} in this process, or another process sharing the store signed out. */
    USER_SIGNED_OUT,
    /** SESSION_INVALID: expired, signed out elsewhere, revoked after token reuse, identity unlinked. */
    SESSION_ENDED,
    /** ACCOUNT_NOT_FOUND on the session: the account is gone. */
    ACCOUNT_NOT_FOUND,
    /** ACCOUNT_DISABLED: an operator disabled the account. */
    ACCOUNT_DISABLED,
    /** {@code deleteAccount()} succeeded. */
    ACCOUNT_DELETED,
    /** {@code unlink} removed the identity this session signed in with (its sessions end). */
    SIGN_IN_IDENTITY_UNLINKED,
    /**
     * The store's encryption key is gone for good while its file is intact (Android's keystore
     * invalidated or lost it: {@code KeyPermanentlyInvalidatedException},
     * {@code UnrecoverableKeyException}, the key entry missing). The file could never be read
     * again, so it was removed: ask the user to sign in again. A keystore that is only busy or
     * locked is not this: the state stays UNKNOWN and the next read retries.
     */
    KEY_LOST;

    static SignOutReason of(ErrorCode code) {
        if (ErrorCode.SESSION_INVALID.equals(code)) {
            return SESSION_ENDED;
        } else if (ErrorCode.ACCOUNT_NOT_FOUND.equals(code)) {
            return ACCOUNT_NOT_FOUND;
        } else if (ErrorCode.ACCOUNT_DISABLED.equals(code)) {
            return ACCOUNT_DISABLED;
        }
        return null;
    }
}

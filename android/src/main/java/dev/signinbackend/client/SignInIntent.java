package dev.signinbackend.client;

/** auth-signin's {@code intent}. */
public enum SignInIntent {
    /** Sign in to an existing account (ACCOUNT_NOT_FOUND otherwise). */
    SIGN_IN("signin"),
    /** Create an account (ACCOUNT_ALREADY_EXISTS when one exists). */
    SIGN_UP("signup"),
    /** Sign in, creating the account when none exists (the default). */
    AUTO("auto");

    private final String wireName;

    SignInIntent(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}

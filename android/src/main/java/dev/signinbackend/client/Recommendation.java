package dev.signinbackend.client;

/** What the UI does about a failure ({@link SignInException#recommendation()}). */
public enum Recommendation {
    /** Show the sign-in screen: the session ended, or the provider's token was refused. */
    SIGN_IN_AGAIN,
    /** Ask for a fresh provider sign-in, then repeat the call (link, unlink, delete, sign out others). */
    REAUTHENTICATE_THEN_RETRY,
    /** A transient failure: keep the session, try again with backoff. */
    RETRY_LATER,
    /** Something the user must read and act on: {@link SignInException#notice()} says what. */
    TELL_USER,
    /** A bug in the app's call (a wrong field, a provider this deployment does not accept). */
    FIX_THE_CALL
}

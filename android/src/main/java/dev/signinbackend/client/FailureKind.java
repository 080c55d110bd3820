package dev.signinbackend.client;

/** What kind of failure a {@link SignInException} is. */
public enum FailureKind {
    /** The function answered with the contract's error envelope ({@link SignInException#code()}). */
    SERVER,
    /** The request never left the device: offline, DNS, connection refused. Nothing reached the function. */
    OFFLINE,
    /** No answer within the function's timeout (plus the network's margin): it may have run. */
    TIMED_OUT,
    /** The connection broke after the request was sent (the answer was lost): the function may have run. */
    CONNECTION_LOST,
    /** HTTP 429 or 5xx without an envelope: throttling, a gateway, Lambda itself. */
    UNAVAILABLE,
    /** An answer that is not what the contract says; {@link SignInException#fieldPath()} names the field. */
    MALFORMED_ANSWER,
    /** No session: sign in first. */
    NOT_SIGNED_IN,
    /** The session store could not be read (tampered, its key unavailable): the state is unknown, not signed out. */
    STORE_UNREADABLE,
    /** The user signed out or another account signed in while the call was under way: its answer was dropped. */
    SESSION_CHANGED,
    /** This process does not refresh the session ({@link RefreshPolicy#READ_ONLY}); the app's main process will. */
    REFRESH_NOT_ALLOWED,
    /** The work was interrupted or could not be scheduled on the executor. */
    CANCELLED
}

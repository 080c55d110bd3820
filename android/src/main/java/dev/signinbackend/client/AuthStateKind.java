package dev.signinbackend.client;

/** The kinds of {@link AuthState}. */
public enum AuthStateKind {
    /** Signed in (at launch: the stored session; later: a new sign-in). */
    SIGNED_IN,
    /** The session refreshed (new credentials, maybe a changed user). */
    REFRESHED,
    /** No session; {@link AuthState#reason} says why. */
    SIGNED_OUT,
    /** The store cannot be read (tampered, key unavailable): not signed out, nothing cleared. */
    UNKNOWN
}

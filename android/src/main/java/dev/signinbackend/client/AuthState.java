package dev.signinbackend.client;

/** What an {@link AuthStateListener} hears: the stored state at once, then every change. */
public final class AuthState {
    public final AuthStateKind kind;
    /** For SIGNED_IN and REFRESHED. */
    public final User user;
    /** For SIGNED_OUT. */
    public final SignOutReason reason;
    /** For UNKNOWN: why the store cannot be read (never a secret). */
    public final String detail;

    private AuthState(AuthStateKind kind, User user, SignOutReason reason, String detail) {
        this.kind = kind;
        this.user = user;
        this.reason = reason;
        this.detail = detail;
    }

    static AuthState signedIn(User user) {
        return new AuthState(AuthStateKind.SIGNED_IN, user, null, null);
    }

    static AuthState refreshed(User user) {
        return new AuthState(AuthStateKind.REFRESHED, user, null, null);
    }

    static AuthState signedOut(SignOutReason reason) {
        return new AuthState(AuthStateKind.SIGNED_OUT, null, reason, null);
    }

    static AuthState unknown(String detail) {
        return new AuthState(AuthStateKind.UNKNOWN, null, null, detail);
    }

    public boolean isSignedIn() {
        return kind == AuthStateKind.SIGNED_IN || kind == AuthStateKind.REFRESHED;
    }

    @Override
    public String toString() {
        switch (kind) {
            case SIGNED_OUT: return "SIGNED_OUT(" + reason + ")";
            case UNKNOWN: return "UNKNOWN";
            default: return kind.name();
        }
    }
}

package dev.signinbackend.client;

/** One of the account's live sessions (auth-refresh {@code list}); {@code sessionId} is not a secret. */
public final class SessionSummary {
    public final String sessionId;
    public final String provider;
    /** The device label given at sign-in, or null. */
    public final String device;
    public final long signedInAtMillis;
    /** -1 when it never refreshed. */
    public final long lastRefreshedAtMillis;
    public final long expiresAtMillis;
    /** This session (the one that asked). */
    public final boolean current;

    SessionSummary(WireReader r) throws SignInException {
        sessionId = r.string("sessionId");
        provider = r.string("provider");
        device = r.optionalString("device");
        signedInAtMillis = r.timestamp("signedInAt");
        lastRefreshedAtMillis = r.optionalTimestamp("lastRefreshedAt");
        expiresAtMillis = r.timestamp("expiresAt");
        current = r.bool("current");
    }

    @Override
    public String toString() {
        return "Session(" + sessionId + ", " + provider + (device == null ? "" : ", " + device)
                + (current ? ", current" : "") + ")";
    }
}

package dev.signinbackend.client;

/**
 * Every failure of the library, with what the UI should do about it ({@link #recommendation()}).
 * Messages never hold a token, a secret or a credential.
 */
public final class SignInException extends Exception {
    private static final long serialVersionUID = 1L;

    private final FailureKind kind;
    private final ErrorCode code;
    private final int httpStatus;
    private final String action;
    private final String fieldPath;

    private SignInException(FailureKind kind, ErrorCode code, int httpStatus, String action, String fieldPath,
            String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.code = code;
        this.httpStatus = httpStatus;
        this.action = action;
        this.fieldPath = fieldPath;
    }

    /** The function's error envelope; {@code status} is the HTTP status, or -1 for a direct invoke. */
    static SignInException server(String action, ErrorCode code, String message, int status) {
        return new SignInException(FailureKind.SERVER, code, status, action, null,
                action + ": " + code.value() + (status > 0 ? " (HTTP " + status + ")" : "") + ": " + message, null);
    }

    static SignInException of(FailureKind kind, String action, String detail) {
        return new SignInException(kind, null, -1, action, null, action + ": " + describe(kind) + ": " + detail, null);
    }

    static SignInException of(FailureKind kind, String action, String detail, Throwable cause) {
        return new SignInException(kind, null, -1, action, null, action + ": " + describe(kind) + ": " + detail, cause);
    }

    static SignInException unavailable(String action, int status, String detail) {
        return new SignInException(FailureKind.UNAVAILABLE, null, status, action, null,
                action + ": service unavailable" + (status > 0 ? " (HTTP " + status + ")" : "") + ": " + detail, null);
    }

    /** An answer that does not decode: {@code path} names the field, e.g. {@code data.credentials.expiration}. */
    static SignInException malformed(String action, String path, String detail) {
        String where = path == null || path.isEmpty() ? "body" : path;
        return new SignInException(FailureKind.MALFORMED_ANSWER, null, -1, action, where,
                "malformed answer to " + action + ": " + where + " " + detail, null);
    }

    private static String describe(FailureKind kind) {
        switch (kind) {
            case OFFLINE: return "offline";
            case TIMED_OUT: return "timed out";
            case CONNECTION_LOST: return "connection lost";
            case NOT_SIGNED_IN: return "not signed in";
            case STORE_UNREADABLE: return "session store unreadable";
            case SESSION_CHANGED: return "the session changed while the call was under way";
            case REFRESH_NOT_ALLOWED: return "this process does not refresh the session";
            case CANCELLED: return "cancelled";
            default: return kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public FailureKind kind() {
        return kind;
    }

    /** The contract's code when the function answered with one, else null. */
    public ErrorCode code() {
        return code;
    }

    /** The HTTP status when there was one (Function URL), else -1. */
    public int httpStatus() {
        return httpStatus;
    }

    /** The call that failed: {@code signin}, {@code refresh}, {@code list}, {@code link}, … */
    public String action() {
        return action;
    }

    /** For {@link FailureKind#MALFORMED_ANSWER}: the field, e.g. {@code data.credentials.expiration}. */
    public String fieldPath() {
        return fieldPath;
    }

    /** What the UI should do. */
    public Recommendation recommendation() {
        switch (kind) {
            case SERVER: return code.recommendation();
            case NOT_SIGNED_IN: return Recommendation.SIGN_IN_AGAIN;
            default: return Recommendation.RETRY_LATER;
        }
    }

    /** For {@link Recommendation#TELL_USER}: what to tell the user; null otherwise. */
    public UserNotice notice() {
        return kind == FailureKind.SERVER ? code.notice() : null;
    }

    /** A definitive answer about the presented session (SESSION_INVALID, ACCOUNT_NOT_FOUND, ACCOUNT_DISABLED). */
    boolean endsSession() {
        return kind == FailureKind.SERVER && code.endsSession();
    }

    /** The request certainly never reached the function (so presenting its token again is never reuse). */
    boolean certainlyNotSent() {
        return kind == FailureKind.OFFLINE;
    }

    /**
     * The function may have run, and rotated the token, without our reading its answer: a timeout,
     * a connection lost after the request left, an unreadable answer, a 5xx other than 503 without
     * an envelope (or a direct invoke's function error). Not an envelope (a failed call consumes
     * nothing), not {@link FailureKind#OFFLINE} (never sent), not 429 or 503 (Lambda did not invoke
     * the function). Such a token is presented again only inside the retry window
     * ({@link StoredSession#unansweredSinceMillis}); the Swift client's {@code mayHaveRotated}.
     */
    boolean mayHaveRotated() {
        switch (kind) {
            case TIMED_OUT:
            case CONNECTION_LOST:
            case MALFORMED_ANSWER:
                return true;
            case UNAVAILABLE:
                return httpStatus != 429 && httpStatus != 503;
            default:
                return false;
        }
    }

    /**
     * Worth the same call again with the same token: nothing was consumed, or the answer was lost
     * (then only inside the server's grace; the caller checks the window).
     */
    boolean isRetryable() {
        switch (kind) {
            case OFFLINE:
            case TIMED_OUT:
            case CONNECTION_LOST:
            case UNAVAILABLE:
            case MALFORMED_ANSWER:
                return true;
            case SERVER:
                return code.isTransient();
            default:
                return false;
        }
    }
}

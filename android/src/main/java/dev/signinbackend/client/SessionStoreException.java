package dev.signinbackend.client;

/**
 * A store that cannot be read or written (tampered, its key unavailable, the disk full). The
 * session treats it as "unknown", never as "signed out": nothing is cleared because of it.
 */
public final class SessionStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean keyLost;

    public SessionStoreException(String message) {
        this(message, null, false);
    }

    /** With its cause kept for diagnosis; the message must name no token, key or path. */
    public SessionStoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private SessionStoreException(String message, Throwable cause, boolean keyLost) {
        super(message, cause);
        this.keyLost = keyLost;
    }

    /**
     * The store holds a session that can never be read again: its key is gone for good (not busy,
     * not locked). The session clears the store and signs out with {@link SignOutReason#KEY_LOST}.
     */
    public static SessionStoreException keyLost(String message, Throwable cause) {
        return new SessionStoreException(message, cause, true);
    }

    /** Whether this is {@link #keyLost}: permanent, unlike every other store failure. */
    public boolean isKeyLost() {
        return keyLost;
    }
}

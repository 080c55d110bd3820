package dev.signinbackend.client;

/**
 * A store that cannot be read or written (tampered, its key unavailable, the disk full). The
 * session treats it as "unknown", never as "signed out": nothing is cleared because of it.
 */
public final class SessionStoreException extends Exception {
    private static final long serialVersionUID = 1L;

    public SessionStoreException(String message) {
        super(message);
    }

    public SessionStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.signinbackend.client;

/**
 * Where the session lives between launches: one opaque blob (the library versions its format).
 * {@link EncryptedFileSessionStore} on Android, {@link InMemorySessionStore} for tests and
 * previews, or your own.
 */
public interface SessionStore {
    /** The stored bytes, or null when nothing is stored. Throws when the store cannot be read (never "nothing"). */
    byte[] load() throws SessionStoreException;

    /** Replaces what is stored, atomically: a reader sees the old bytes or the new ones, never a mix. */
    void save(byte[] data) throws SessionStoreException;

    /** Removes what is stored (nothing stored is not an error). */
    void remove() throws SessionStoreException;

    /**
     * An exclusive hold on the stored session for the processes sharing it, taken around every
     * call that presents the refresh token, so two processes never present one token at once.
     * The default holds nothing (a store only one process reads).
     */
    default StoreLock lock() throws SessionStoreException {
        return StoreLock.NONE;
    }
}

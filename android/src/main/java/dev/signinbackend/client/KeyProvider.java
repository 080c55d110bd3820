package dev.signinbackend.client;

import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.crypto.SecretKey;

/**
 * The AES-256 key of an {@link EncryptedFileSessionStore}: on Android
 * {@code AndroidKeystoreKeyProvider} (a key that never leaves the device's keystore), for tests
 * and JVM tools {@link SoftwareKeyProvider}.
 */
public interface KeyProvider {
    /** The key, created on first use; the same key every later time. */
    SecretKey secretKey() throws GeneralSecurityException, IOException;

    /**
     * The key if it exists, or null when there is none (never created, or lost: a file sealed
     * under it can then never be read). Reading a session file uses this, never
     * {@link #secretKey()}, so a lost key is told from a tampered file. The default: {@link #secretKey()}.
     */
    default SecretKey existingKey() throws GeneralSecurityException, IOException {
        return secretKey();
    }

    /**
     * Whether {@code e}, thrown by this provider or by a cipher using its key, means the key is
     * gone for good (Android: {@code KeyPermanentlyInvalidatedException},
     * {@code UnrecoverableKeyException}) rather than unavailable for now (a busy or locked keystore).
     */
    default boolean isPermanentLoss(GeneralSecurityException e) {
        return false;
    }

    /** Deletes a key that is gone for good, so the next {@link #secretKey()} creates a new one. */
    default void discard() throws GeneralSecurityException, IOException {
    }
}

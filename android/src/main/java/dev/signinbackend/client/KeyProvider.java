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
}

package dev.signinbackend.client;

import java.io.File;
import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * An AES-256 key held in software: for tests and JVM tools only. A key kept in a file beside the
 * encrypted session protects it from a casual read of that one file, not from anyone who can read
 * the folder; on Android use {@code AndroidKeystoreKeyProvider}.
 */
public final class SoftwareKeyProvider implements KeyProvider {
    private final byte[] key;
    private final File file;

    private SoftwareKeyProvider(byte[] key, File file) {
        this.key = key;
        this.file = file;
    }

    /** A fixed 32-byte key. */
    public static SoftwareKeyProvider of(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("an AES-256 key is 32 bytes");
        }
        return new SoftwareKeyProvider(key.clone(), null);
    }

    /** A random key made once and kept in {@code file} (owner-only). */
    public static SoftwareKeyProvider inFile(File file) {
        return new SoftwareKeyProvider(null, file);
    }

    @Override
    public SecretKey secretKey() throws GeneralSecurityException, IOException {
        if (key != null) {
            return new SecretKeySpec(key, "AES");
        }
        StoreLock held = FileSteps.lock(file);
        try {
            byte[] stored = FileSteps.readIfExists(file, 64);
            if (stored == null) {
                stored = Bytes.random(32);
                FileSteps.writeAtomically(file, stored);
            }
            if (stored.length != 32) {
                throw new GeneralSecurityException("the key file does not hold a 32-byte key");
            }
            return new SecretKeySpec(stored, "AES");
        } finally {
            held.close();
        }
    }
}

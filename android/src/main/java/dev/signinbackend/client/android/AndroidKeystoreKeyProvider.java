package dev.signinbackend.client.android;

import android.security.keystore.KeyGenParameterSpec;
import android.security.keystore.KeyPermanentlyInvalidatedException;
import android.security.keystore.KeyProperties;
import dev.signinbackend.client.KeyProvider;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;

/**
 * The session file's key in Android's keystore (API 23+): an AES-256 key that never leaves it
 * (not exportable, not in any backup), for GCM without padding, with the keystore's own random IV
 * at every encryption (randomized encryption required, AOSP's default). It needs no user
 * authentication and no unlocked screen, so a background refresh (WorkManager) can read and write
 * the session while the phone is locked, after the first unlock since boot.
 *
 * <p>Compiled here against a test-only mirror of the Android declarations it uses and tested
 * against a fake keystore provider; only an Android build and device prove the real keystore
 * (docs/android.md, "What this repository proves").
 */
public final class AndroidKeystoreKeyProvider implements KeyProvider {
    static final String KEYSTORE = "AndroidKeyStore";

    private final String alias;

    /** The key under {@code alias} in {@code AndroidKeyStore}, created on first use. */
    public AndroidKeystoreKeyProvider(String alias) {
        this.alias = alias;
    }

    @Override
    public synchronized SecretKey secretKey() throws GeneralSecurityException, IOException {
        KeyStore keyStore = KeyStore.getInstance(KEYSTORE);
        keyStore.load(null);
        Key existing = keyStore.getKey(alias, null);
        if (existing instanceof SecretKey) {
            return (SecretKey) existing;
        }
        if (existing != null) {
            keyStore.deleteEntry(alias);  // not an AES key: nothing of ours can use it
        }
        KeyGenerator generator = KeyGenerator.getInstance(KeyProperties.KEY_ALGORITHM_AES, KEYSTORE);
        generator.init(new KeyGenParameterSpec.Builder(alias, KeyProperties.PURPOSE_ENCRYPT | KeyProperties.PURPOSE_DECRYPT)
                .setBlockModes(KeyProperties.BLOCK_MODE_GCM)
                .setEncryptionPaddings(KeyProperties.ENCRYPTION_PADDING_NONE)
                .setKeySize(256)
                .setRandomizedEncryptionRequired(true)
                .setUserAuthenticationRequired(false)
                .build());
        generator.generateKey();
        // Read back what the keystore holds under the alias: if another process created its key at
        // the same moment, both use the one that stayed.
        Key stored = keyStore.getKey(alias, null);
        if (!(stored instanceof SecretKey)) {
            throw new GeneralSecurityException("the keystore did not keep the new key");
        }
        return (SecretKey) stored;
    }

    /**
     * The key under the alias, or null when the keystore holds none (cleared, or an app data
     * restore that brought the file without its key). {@code getKey} throws
     * {@link UnrecoverableKeyException} for a key it holds but can no longer recover.
     */
    @Override
    public synchronized SecretKey existingKey() throws GeneralSecurityException, IOException {
        KeyStore keyStore = KeyStore.getInstance(KEYSTORE);
        keyStore.load(null);
        Key existing = keyStore.getKey(alias, null);
        return existing instanceof SecretKey ? (SecretKey) existing : null;
    }

    /**
     * Gone for good: {@link KeyPermanentlyInvalidatedException} (API 23; thrown by
     * {@code Cipher.init}) and {@link UnrecoverableKeyException}. Everything else (a
     * {@code KeyStoreException} from a busy keystore, a locked one before the first unlock) is for now.
     */
    @Override
    public boolean isPermanentLoss(GeneralSecurityException e) {
        return e instanceof KeyPermanentlyInvalidatedException || e instanceof UnrecoverableKeyException;
    }

    @Override
    public synchronized void discard() throws GeneralSecurityException, IOException {
        KeyStore keyStore = KeyStore.getInstance(KEYSTORE);
        keyStore.load(null);
        keyStore.deleteEntry(alias);
    }
}

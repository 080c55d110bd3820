package dev.signinbackend.client.android;

import android.security.keystore.KeyGenParameterSpec;
import android.security.keystore.KeyProperties;
import dev.signinbackend.client.KeyProvider;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
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
}

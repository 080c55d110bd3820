package dev.signinbackend.client.android;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import android.content.Context;
import android.security.keystore.KeyGenParameterSpec;
import android.security.keystore.KeyPermanentlyInvalidatedException;
import android.security.keystore.KeyProperties;
import dev.signinbackend.client.EncryptedFileSessionStore;
import dev.signinbackend.client.SessionStoreException;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.security.KeyStoreException;
import java.security.Security;
import java.security.UnrecoverableKeyException;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keystore provider's calls against a fake "AndroidKeyStore" that behaves as Android documents
 * (what this proves, and what only a device proves: docs/android.md).
 */
class AndroidKeystoreKeyProviderTest {
    @TempDir
    File dir;

    @BeforeAll
    static void install() {
        Security.addProvider(new FakeAndroidKeyStore());
    }

    @AfterAll
    static void uninstall() {
        Security.removeProvider("AndroidKeyStore");
    }

    @BeforeEach
    void empty() {
        FakeAndroidKeyStore.KEYS.clear();
        FakeAndroidKeyStore.SPECS.clear();
    }

    @Test
    void createsOneAes256GcmKeyAndReusesIt() throws Exception {
        SecretKey first = new AndroidKeystoreKeyProvider("alias-1").secretKey();
        SecretKey again = new AndroidKeystoreKeyProvider("alias-1").secretKey();
        assertSame(first, again);
        assertEquals(1, FakeAndroidKeyStore.SPECS.size());
        KeyGenParameterSpec spec = FakeAndroidKeyStore.SPECS.get(0);
        assertEquals("alias-1", spec.getKeystoreAlias());
        assertEquals(256, spec.getKeySize());
        assertEquals(KeyProperties.PURPOSE_ENCRYPT | KeyProperties.PURPOSE_DECRYPT, spec.getPurposes());
        assertTrue(FakeAndroidKeyStore.gcmOnly(spec));
        assertTrue(spec.isRandomizedEncryptionRequired(), "the keystore chooses every IV");
        assertFalse(spec.isUserAuthenticationRequired(), "a locked phone's background refresh can use it");
    }

    @Test
    void theAndroidStoreLivesInTheNoBackupFolderAndRoundTrips() throws Exception {
        File noBackup = new File(dir, "no_backup");
        Context context = new Context() {
            @Override
            public File getNoBackupFilesDir() {
                return noBackup;
            }
        };
        EncryptedFileSessionStore store = AndroidSessionStores.encryptedFileStore(context);
        assertEquals(new File(noBackup, "signin/session"), store.file());
        store.save("s".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("s".getBytes(StandardCharsets.UTF_8), AndroidSessionStores.encryptedFileStore(context).load());
        assertTrue(FakeAndroidKeyStore.KEYS.containsKey(AndroidSessionStores.KEY_ALIAS));
    }

    @Test
    void aKeyEntryGoneWithTheFileIntactIsAPermanentLoss() throws Exception {
        EncryptedFileSessionStore store = new EncryptedFileSessionStore(new File(dir, "session"),
                new AndroidKeystoreKeyProvider("alias-2"));
        store.save("s".getBytes(StandardCharsets.UTF_8));
        FakeAndroidKeyStore.KEYS.clear();  // the keystore lost the key (a reset, a restore without it)
        SessionStoreException e = assertThrows(SessionStoreException.class, () ->
                new EncryptedFileSessionStore(new File(dir, "session"), new AndroidKeystoreKeyProvider("alias-2")).load());
        assertTrue(e.isKeyLost(), e.getMessage());
        assertTrue(FakeAndroidKeyStore.SPECS.size() == 1, "reading made no new key");
    }

    @Test
    void permanentFailuresAreToldFromPassingOnes() {
        AndroidKeystoreKeyProvider keys = new AndroidKeystoreKeyProvider("alias-3");
        assertTrue(keys.isPermanentLoss(new KeyPermanentlyInvalidatedException()));
        assertTrue(keys.isPermanentLoss(new UnrecoverableKeyException("gone")));
        assertFalse(keys.isPermanentLoss(new KeyStoreException("busy")));
        assertFalse(keys.isPermanentLoss(new java.security.InvalidKeyException("not this one")));
    }

    @Test
    void discardDeletesTheAliasSoTheNextKeyIsNew() throws Exception {
        AndroidKeystoreKeyProvider keys = new AndroidKeystoreKeyProvider("alias-4");
        SecretKey first = keys.secretKey();
        keys.discard();
        assertEquals(null, keys.existingKey());
        assertFalse(first.equals(keys.secretKey()));
    }
}

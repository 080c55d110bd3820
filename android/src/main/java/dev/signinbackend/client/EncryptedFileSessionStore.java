package dev.signinbackend.client;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.ProviderException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * The session in one file, encrypted with AES-256-GCM under a {@link KeyProvider}'s key: a new
 * random 96-bit IV for every write (chosen by the key's provider, as Android's keystore requires,
 * and checked never to repeat the previous one), the file's purpose bound in as associated data,
 * written to a temporary file and renamed over the old one (a crash leaves the old session or the
 * new one, never a mix).
 *
 * <p>On Android put the file in {@code Context.getNoBackupFilesDir()} (see
 * {@code AndroidSessionStores}): the session never travels to another device in a backup, and the
 * keystore's key would not travel with it anyway. A file that fails authentication (tampered,
 * truncated, written under another key) is unreadable: {@link #load()} throws, and the session
 * treats that as "unknown", never as "signed out". A file whose key is gone for good (the key
 * provider has none, or says so: {@link KeyProvider#isPermanentLoss}) is
 * {@link SessionStoreException#keyLost}: the session removes it and signs out
 * ({@link SignOutReason#KEY_LOST}) instead of reporting "unknown" at every launch forever.
 *
 * <p>Layout: {@code "SIS1"}, one byte IV length (12), the IV, then ciphertext and 16-byte tag.
 */
public final class EncryptedFileSessionStore implements SessionStore {
    private static final byte[] MAGIC = {'S', 'I', 'S', '1'};
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int MAX_FILE_BYTES = 256 * 1024;

    private final File file;
    private final KeyProvider keys;
    private final byte[] associatedData;
    private byte[] lastIv;
    private SecretKey key;

    /** A store in {@code file} whose key comes from {@code keys}. */
    public EncryptedFileSessionStore(File file, KeyProvider keys) {
        this.file = file;
        this.keys = keys;
        byte[] label = ("dev.signinbackend.client.session:" + file.getName()).getBytes(StandardCharsets.UTF_8);
        this.associatedData = new byte[MAGIC.length + label.length];
        System.arraycopy(MAGIC, 0, associatedData, 0, MAGIC.length);
        System.arraycopy(label, 0, associatedData, MAGIC.length, label.length);
    }

    public File file() {
        return file;
    }

    @Override
    public synchronized byte[] load() throws SessionStoreException {
        byte[] sealed;
        try {
            sealed = FileSteps.readIfExists(file, MAX_FILE_BYTES);
        } catch (IOException e) {
            throw new SessionStoreException("the session file cannot be read (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        }
        if (sealed == null) {
            return null;
        }
        if (sealed.length < MAGIC.length + 1 + IV_BYTES + TAG_BITS / 8
                || !Arrays.equals(Arrays.copyOf(sealed, MAGIC.length), MAGIC) || sealed[MAGIC.length] != IV_BYTES) {
            throw new SessionStoreException("the session file is not one this library wrote");
        }
        byte[] iv = Arrays.copyOfRange(sealed, MAGIC.length + 1, MAGIC.length + 1 + IV_BYTES);
        int start = MAGIC.length + 1 + IV_BYTES;
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, existingKey(), new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(associatedData);
            byte[] plain = cipher.doFinal(sealed, start, sealed.length - start);
            lastIv = iv;
            return plain;
        } catch (AEADBadTagException e) {
            throw new SessionStoreException("the session file failed authentication (tampered, or sealed with another key)",
                    RedactedCause.of(e));
        } catch (GeneralSecurityException e) {
            throw failure("the session file cannot be decrypted", e);
        } catch (ProviderException e) {
            key = null;  // a keystore error for now (busy, locked): fetched again next time
            throw new SessionStoreException("the keystore failed (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        }
    }

    /**
     * A key failure as the store reports it: permanent ({@link SessionStoreException#keyLost}, the
     * key deleted so the next sign-in makes a new one) when the provider says the key is gone for
     * good; otherwise "unreadable for now", the key fetched again next time.
     */
    private SessionStoreException failure(String what, GeneralSecurityException e) {
        key = null;
        if (!keys.isPermanentLoss(e)) {
            return new SessionStoreException(what + " (" + e.getClass().getSimpleName() + ")", RedactedCause.of(e));
        }
        try {
            keys.discard();
        } catch (GeneralSecurityException | IOException | ProviderException ignored) {
            // The next sign-in's key() meets it again and reports it.
        }
        return SessionStoreException.keyLost(what + ": its key is gone for good (" + e.getClass().getSimpleName() + ")",
                RedactedCause.of(e));
    }

    @Override
    public synchronized void save(byte[] data) throws SessionStoreException {
        byte[] sealed;
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            // No IV of ours: the provider draws a random one (Android's keystore refuses a caller's IV
            // for a key that requires randomized encryption, the default).
            cipher.init(Cipher.ENCRYPT_MODE, key());
            byte[] iv = cipher.getIV();
            if (iv == null || iv.length != IV_BYTES) {
                throw new SessionStoreException("the cipher did not choose a 96-bit IV");
            }
            if (lastIv != null && MessageDigest.isEqual(iv, lastIv)) {
                throw new SessionStoreException("the cipher repeated an IV; nothing was written");
            }
            cipher.updateAAD(associatedData);
            byte[] body = cipher.doFinal(data);
            sealed = new byte[MAGIC.length + 1 + IV_BYTES + body.length];
            System.arraycopy(MAGIC, 0, sealed, 0, MAGIC.length);
            sealed[MAGIC.length] = IV_BYTES;
            System.arraycopy(iv, 0, sealed, MAGIC.length + 1, IV_BYTES);
            System.arraycopy(body, 0, sealed, MAGIC.length + 1 + IV_BYTES, body.length);
            FileSteps.writeAtomically(file, sealed);
            lastIv = iv;
        } catch (GeneralSecurityException e) {
            key = null;
            throw new SessionStoreException("the session could not be sealed (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        } catch (ProviderException e) {
            key = null;
            throw new SessionStoreException("the keystore failed (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        } catch (IOException e) {
            throw new SessionStoreException("the session could not be saved (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        }
    }

    @Override
    public synchronized void remove() throws SessionStoreException {
        try {
            FileSteps.delete(file);
        } catch (IOException e) {
            throw new SessionStoreException("the session file could not be removed", RedactedCause.of(e));
        }
    }

    @Override
    public StoreLock lock() throws SessionStoreException {
        try {
            return FileSteps.lock(file);
        } catch (IOException e) {
            throw new SessionStoreException("the session file could not be locked (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        }
    }

    /**
     * The key, fetched once and kept (a keystore key object is a handle, not the key). Never under
     * the file's lock: the session holds that lock while it reads and writes the store.
     */
    private SecretKey key() throws SessionStoreException {
        if (key != null) {
            return key;
        }
        try {
            key = keys.secretKey();
            return key;
        } catch (GeneralSecurityException | IOException e) {
            throw new SessionStoreException("the session key is unavailable (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        }
    }

    /**
     * The key a file present on disk was sealed with. Never a new one: a key that is gone
     * (provider answers null) means the file can never be read again, which is told apart from a
     * tampered file (a new key would fail its authentication) and from a keystore busy for now.
     */
    private SecretKey existingKey() throws SessionStoreException, GeneralSecurityException {
        if (key != null) {
            return key;
        }
        SecretKey found;
        try {
            found = keys.existingKey();
        } catch (IOException e) {
            throw new SessionStoreException("the session key is unavailable (" + e.getClass().getSimpleName() + ")",
                    RedactedCause.of(e));
        }
        if (found == null) {
            throw SessionStoreException.keyLost("the session file's key is gone from the keystore", null);
        }
        key = found;
        return found;
    }
}

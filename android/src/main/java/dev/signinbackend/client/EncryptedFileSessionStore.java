package dev.signinbackend.client;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
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
 * treats that as "unknown", never as "signed out".
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
            throw new SessionStoreException("the session file cannot be read (" + e.getClass().getSimpleName() + ")");
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
            cipher.init(Cipher.DECRYPT_MODE, key(), new GCMParameterSpec(TAG_BITS, iv));
            cipher.updateAAD(associatedData);
            byte[] plain = cipher.doFinal(sealed, start, sealed.length - start);
            lastIv = iv;
            return plain;
        } catch (AEADBadTagException e) {
            throw new SessionStoreException("the session file failed authentication (tampered, or sealed with another key)");
        } catch (GeneralSecurityException e) {
            key = null;  // fetched again next time (a keystore key can be invalidated under us)
            throw new SessionStoreException("the session file cannot be decrypted (" + e.getClass().getSimpleName() + ")");
        }
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
            throw new SessionStoreException("the session could not be sealed (" + e.getClass().getSimpleName() + ")");
        } catch (IOException e) {
            throw new SessionStoreException("the session could not be saved (" + e.getClass().getSimpleName() + ")");
        }
    }

    @Override
    public synchronized void remove() throws SessionStoreException {
        try {
            FileSteps.delete(file);
        } catch (IOException e) {
            throw new SessionStoreException("the session file could not be removed");
        }
    }

    @Override
    public StoreLock lock() throws SessionStoreException {
        try {
            return FileSteps.lock(file);
        } catch (IOException e) {
            throw new SessionStoreException("the session file could not be locked (" + e.getClass().getSimpleName() + ")");
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
            throw new SessionStoreException("the session key is unavailable (" + e.getClass().getSimpleName() + ")");
        }
    }
}

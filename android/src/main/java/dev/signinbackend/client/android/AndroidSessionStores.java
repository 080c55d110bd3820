package dev.signinbackend.client.android;

import android.content.Context;
import dev.signinbackend.client.EncryptedFileSessionStore;
import java.io.File;

/** The store an Android app uses: the encrypted session file in the no-backup folder, its key in the keystore. */
public final class AndroidSessionStores {
    /** The keystore alias of the session file's key. */
    public static final String KEY_ALIAS = "dev.signinbackend.client.session";

    private AndroidSessionStores() {}

    /**
     * {@code <noBackupFilesDir>/signin/session}, sealed with {@link AndroidKeystoreKeyProvider}:
     * never in Auto Backup or a device-to-device transfer (the contract: stored tokens stay on the
     * device they were issued to), readable by a background refresh after the first unlock.
     */
    public static EncryptedFileSessionStore encryptedFileStore(Context context) {
        File folder = new File(context.getNoBackupFilesDir(), "signin");
        return new EncryptedFileSessionStore(new File(folder, "session"), new AndroidKeystoreKeyProvider(KEY_ALIAS));
    }
}

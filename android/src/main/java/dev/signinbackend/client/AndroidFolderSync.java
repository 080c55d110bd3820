package dev.signinbackend.client;

import android.system.ErrnoException;
import android.system.Os;
import android.system.OsConstants;
import java.io.FileDescriptor;
import java.io.File;
import java.io.IOException;

/**
 * The folder's {@code fsync} on Android (API 21's {@code android.system.Os}): after a rename the
 * new entry is on disk too, not only the file's bytes. Loaded only on Android ({@link FileSteps}).
 */
final class AndroidFolderSync {
    private AndroidFolderSync() {}

    static void fsync(File folder) throws IOException {
        try {
            FileDescriptor fd = Os.open(folder.getPath(), OsConstants.O_RDONLY, 0);
            try {
                Os.fsync(fd);
            } finally {
                Os.close(fd);
            }
        } catch (ErrnoException e) {
            throw new IOException("the session folder could not be synced", e);
        }
    }
}

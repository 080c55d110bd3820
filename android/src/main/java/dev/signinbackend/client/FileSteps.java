package dev.signinbackend.client;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * File steps the stores share, over {@code java.io} ({@code java.nio.file} arrived on Android
 * only with API 26): whole-file reads, atomic replacement (a private temporary file in the same
 * folder, flushed to disk, renamed over the target), owner-only permissions, and an exclusive lock
 * that holds across threads of this process (a per-path lock) and across processes (a
 * {@link FileLock} on a sibling file).
 */
final class FileSteps {
    /** Makes a folder's entries durable after a rename (an fsync of the folder itself). */
    interface FolderSync {
        void sync(File folder) throws IOException;
    }

    private static final Map<String, Holder> HOLDERS = new HashMap<>();
    private static final boolean ON_ANDROID = String.valueOf(System.getProperty("java.vendor")).contains("Android");

    /**
     * Called with the folder after every rename. On Android an {@code fsync} of the folder through
     * {@code android.system.Os} ({@code java.nio.file} arrived only with API 26); on a JVM (tests,
     * tools) nothing. Tests replace it to watch the order of the steps.
     */
    static volatile FolderSync folderSync = folder -> {
        if (ON_ANDROID) {
            AndroidFolderSync.fsync(folder);
        }
    };

    private FileSteps() {}

    /**
     * The file's bytes, or null when it certainly does not exist: its folder can be searched and
     * holds no such entry. A file that cannot be opened, or a folder that cannot be searched, is an
     * IOException, never "absent" (absent would end the session and delete the store).
     */
    static byte[] readIfExists(File file, int maxBytes) throws IOException {
        InputStream in;
        try {
            in = new FileInputStream(file);
        } catch (FileNotFoundException e) {
            File folder = file.getAbsoluteFile().getParentFile();
            boolean folderAbsent = folder != null && !folder.exists();
            boolean searchable = folder == null || folder.isDirectory() && folder.canExecute();
            if (folderAbsent || searchable && !file.exists()) {
                return null;
            }
            throw e;
        }
        try (InputStream stream = in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            int n;
            while ((n = stream.read(buffer)) != -1) {
                out.write(buffer, 0, n);
                if (out.size() > maxBytes) {
                    throw new IOException("file larger than " + maxBytes + " bytes");
                }
            }
            return out.toByteArray();
        }
    }

    /**
     * Replaces {@code file}'s content with {@code data}: readers see the old bytes or the new ones,
     * and after a crash or power loss the old or the new (the folder is synced after the rename).
     * The folder's permissions are set once, when this creates it: changing them at every write
     * left a moment in which another process could not search the folder and read "no session".
     */
    static void writeAtomically(File file, byte[] data) throws IOException {
        File folder = file.getAbsoluteFile().getParentFile();
        if (!folder.isDirectory()) {
            if (!folder.mkdirs() && !folder.isDirectory()) {
                throw new IOException("cannot create the folder");
            }
            ownerOnly(folder);
        }
        File temporary = File.createTempFile("." + file.getName() + ".", ".tmp", folder);
        boolean renamed = false;
        try {
            ownerOnly(temporary);
            try (FileOutputStream out = new FileOutputStream(temporary)) {
                out.write(data);
                out.flush();
                out.getFD().sync();
            }
            if (!temporary.renameTo(file)) {
                throw new IOException("rename failed");
            }
            renamed = true;
            folderSync.sync(folder);
        } finally {
            if (!renamed && !temporary.delete() && temporary.exists()) {
                temporary.deleteOnExit();
            }
        }
    }

    /** Readable and writable by this user (this app) only; for a file or folder no one else uses yet. */
    static void ownerOnly(File file) {
        boolean directory = file.isDirectory();
        file.setReadable(false, false);
        file.setReadable(true, true);
        file.setWritable(false, false);
        file.setWritable(true, true);
        file.setExecutable(false, false);
        if (directory) {
            file.setExecutable(true, true);
        }
    }

    /** Removes {@code file}; absent is fine. */
    static void delete(File file) throws IOException {
        if (!file.delete() && file.exists()) {
            throw new IOException("cannot delete");
        }
    }

    /**
     * Exclusive across this process's threads and across processes; close to release. Reentrant
     * for the thread that holds it (the file lock is taken at the first entry, released at the last).
     */
    static StoreLock lock(File file) throws IOException {
        File lockFile = new File(file.getAbsolutePath() + ".lock");
        Holder holder;
        synchronized (HOLDERS) {
            holder = HOLDERS.computeIfAbsent(lockFile.getCanonicalPath(), k -> new Holder());
        }
        holder.threads.lock();
        if (holder.threads.getHoldCount() == 1) {
            try {
                File folder = lockFile.getParentFile();
                if (folder != null && !folder.isDirectory() && !folder.mkdirs() && !folder.isDirectory()) {
                    throw new IOException("cannot create the folder");
                }
                holder.handle = new RandomAccessFile(lockFile, "rw");
                holder.fileLock = holder.handle.getChannel().lock();
            } catch (IOException | RuntimeException e) {
                holder.closeFile();
                holder.threads.unlock();
                throw e;
            }
        }
        return () -> {
            if (holder.threads.getHoldCount() == 1) {
                holder.closeFile();
            }
            holder.threads.unlock();
        };
    }

    /** One lock file's state in this process. */
    private static final class Holder {
        final ReentrantLock threads = new ReentrantLock();
        RandomAccessFile handle;
        FileLock fileLock;

        void closeFile() {
            try {
                if (fileLock != null) {
                    fileLock.release();
                }
                if (handle != null) {
                    handle.close();
                }
            } catch (IOException ignored) {
                // Closing the handle releases the lock whatever happened.
            } finally {
                fileLock = null;
                handle = null;
            }
        }
    }
}

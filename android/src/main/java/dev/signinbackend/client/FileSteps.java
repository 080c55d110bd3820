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
    private static final Map<String, Holder> HOLDERS = new HashMap<>();

    private FileSteps() {}

    /** The file's bytes, or null when it does not exist. */
    static byte[] readIfExists(File file, int maxBytes) throws IOException {
        InputStream in;
        try {
            in = new FileInputStream(file);
        } catch (FileNotFoundException e) {
            if (!file.exists()) {
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

    /** Replaces {@code file}'s content with {@code data}: readers see the old bytes or the new ones. */
    static void writeAtomically(File file, byte[] data) throws IOException {
        File folder = file.getAbsoluteFile().getParentFile();
        if (!folder.isDirectory() && !folder.mkdirs() && !folder.isDirectory()) {
            throw new IOException("cannot create the folder");
        }
        ownerOnly(folder);
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
        } finally {
            if (!renamed && !temporary.delete() && temporary.exists()) {
                temporary.deleteOnExit();
            }
        }
    }

    /** Readable and writable by this user (this app) only. */
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

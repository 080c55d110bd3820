package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Android review's store and configuration findings (issue 32), each as the fix proves it. */
class ReviewFindingsTest {
    @TempDir
    File dir;

    private EncryptedFileSessionStore store(KeyProvider keys) {
        return new EncryptedFileSessionStore(new File(dir, "signin/session"), keys);
    }

    @Test
    void aWriteLeavesTheFoldersPermissionsAsTheyAre() throws Exception {
        EncryptedFileSessionStore store = store(SoftwareKeyProvider.of(new byte[32]));
        store.save("a".getBytes(StandardCharsets.UTF_8));
        File folder = store.file().getParentFile();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.toPath())),
                "owner-only when created");
        // Any change a write made to the folder would leave a moment in which another process
        // cannot search it, and reads "no session": the write must not touch it at all.
        Files.setPosixFilePermissions(folder.toPath(), PosixFilePermissions.fromString("rwxr-x---"));
        store.save("b".getBytes(StandardCharsets.UTF_8));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.toPath())));
    }

    @Test
    void theFolderIsSyncedAfterTheRename() throws Exception {
        EncryptedFileSessionStore store = store(SoftwareKeyProvider.of(new byte[32]));
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        FileSteps.FolderSync before = FileSteps.folderSync;
        FileSteps.folderSync = folder -> seen.add(folder.getName() + " " + new String(
                StoredBytes.of(store), StandardCharsets.UTF_8));
        try {
            store.save("new".getBytes(StandardCharsets.UTF_8));
        } finally {
            FileSteps.folderSync = before;
        }
        assertEquals(List.of("signin new"), seen, "synced once, after the new file took the name");
    }

    @Test
    void storeExceptionsKeepTheirCauseRedacted() throws Exception {
        EncryptedFileSessionStore store = store(SoftwareKeyProvider.of(new byte[32]));
        assertTrue(store.file().mkdirs());  // a folder where the file should be: unreadable
        SessionStoreException e = assertThrows(SessionStoreException.class, store::load);
        assertNotNull(e.getCause(), "the cause is kept");
        assertTrue(e.getCause().getMessage().startsWith("java.io."), e.getCause().getMessage());
        assertFalse(e.getCause().getMessage().contains(dir.getPath()), "no path in it");
        assertTrue(e.getCause().getStackTrace().length > 0);
    }

    @Test
    void aLostKeyWithTheFileIntactSignsOutWithItsOwnReasonAndClearsTheStore() throws Exception {
        FakeKeystoreKeys keys = new FakeKeystoreKeys();
        try (Harness h = new Harness()) {
            h.store = store(keys);
            h.signedIn();
            keys.lose();  // a keystore reset: the file stays, its key does not
            h.store = store(keys);  // the next launch's store
            SignInSession relaunched = h.session();
            assertEquals("SIGNED_OUT(KEY_LOST)", h.states.get(h.states.size() - 1).toString());
            assertEquals(null, await(relaunched.currentUser()));
            assertFalse(((EncryptedFileSessionStore) h.store).file().exists(), "cleared, not UNKNOWN forever");
            await(relaunched.signIn(Provider.APPLE, "apple-id-token"));  // a new key, a new session
            assertNotNull(h.storedToken());
        }
    }

    @Test
    void anUnrecoverableKeyIsPermanentAndABusyKeystoreIsNot() throws Exception {
        FakeKeystoreKeys keys = new FakeKeystoreKeys();
        EncryptedFileSessionStore store = store(keys);
        store.save("s".getBytes(StandardCharsets.UTF_8));
        keys.mode = FakeKeystoreKeys.Mode.BUSY;
        SessionStoreException busy = assertThrows(SessionStoreException.class, store(keys)::load);
        assertFalse(busy.isKeyLost(), "busy is for now");
        assertTrue(store.file().exists());
        keys.mode = FakeKeystoreKeys.Mode.UNRECOVERABLE;
        SessionStoreException lost = assertThrows(SessionStoreException.class, store(keys)::load);
        assertTrue(lost.isKeyLost());
        assertEquals(1, keys.discarded, "the dead key is deleted so a new one can be made");
    }

    @Test
    void aDeviceLabelLongerThanTheServersLimitIsRefusedAtConfiguration() {
        SignInConfiguration.Builder b = SignInConfiguration.builder((f, a, e, t) -> null, new InMemorySessionStore(),
                Runnable::run);
        String sixtyFour = "é".repeat(64);  // 64 characters, 128 bytes: the server counts characters
        b.device(sixtyFour);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.device(sixtyFour + "x"));
        assertTrue(e.getMessage().contains("64"), e.getMessage());
    }

    @Test
    void signInAndSignOutWriteTheStoreUnderItsLock() throws Exception {
        LockWatchingStore store = new LockWatchingStore();
        try (Harness h = new Harness()) {
            h.store = store;
            SignInSession session = h.signedIn();
            await(session.signOut());
            assertEquals(List.of(), store.unlockedWrites, "every write under the store's lock");
            assertTrue(store.writes >= 2);
        }
    }

    /** A store that notes every write made without its lock held. */
    static final class LockWatchingStore implements SessionStore {
        final InMemorySessionStore inner = new InMemorySessionStore();
        final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        final List<String> unlockedWrites = Collections.synchronizedList(new ArrayList<>());
        volatile int writes;

        @Override
        public byte[] load() {
            return inner.load();
        }

        @Override
        public void save(byte[] data) {
            note("save");
            inner.save(data);
        }

        @Override
        public void remove() {
            note("remove");
            inner.remove();
        }

        private void note(String what) {
            writes++;
            if (!lock.isHeldByCurrentThread()) {
                unlockedWrites.add(what);
            }
        }

        @Override
        public StoreLock lock() {
            lock.lock();
            return lock::unlock;
        }
    }

    /** The file's decrypted bytes as they are on disk now. */
    static final class StoredBytes {
        static byte[] of(EncryptedFileSessionStore store) {
            try {
                return new EncryptedFileSessionStore(store.file(), SoftwareKeyProvider.of(new byte[32])).load();
            } catch (SessionStoreException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}

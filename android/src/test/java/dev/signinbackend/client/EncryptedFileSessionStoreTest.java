package dev.signinbackend.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The encrypted session file: AES-256-GCM, a fresh IV per write, atomic replacement, tamper evidence. */
class EncryptedFileSessionStoreTest {
    @TempDir
    File dir;

    private static final byte[] KEY = new byte[32];

    private EncryptedFileSessionStore store(File file) {
        return new EncryptedFileSessionStore(file, SoftwareKeyProvider.of(KEY));
    }

    @Test
    void roundTripsAndIsAbsentUntilWritten() throws Exception {
        EncryptedFileSessionStore store = store(new File(dir, "signin/session"));
        assertNull(store.load());
        store.save("hello".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), store(new File(dir, "signin/session")).load());
        store.remove();
        assertNull(store.load());
        store.remove();  // nothing stored is not an error
    }

    @Test
    void theFileIsAes256GcmWithTheLayoutTheDocsGive() throws Exception {
        File file = new File(dir, "session");
        store(file).save("payload".getBytes(StandardCharsets.UTF_8));
        byte[] sealed = Files.readAllBytes(file.toPath());
        assertArrayEquals("SIS1".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(sealed, 4));
        assertEquals(12, sealed[4]);
        // An independent decryption with the JDK's own GCM, the AAD as documented.
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(KEY, "AES"),
                new GCMParameterSpec(128, Arrays.copyOfRange(sealed, 5, 17)));
        cipher.updateAAD(("SIS1dev.signinbackend.client.session:session").getBytes(StandardCharsets.UTF_8));
        assertEquals("payload", new String(cipher.doFinal(sealed, 17, sealed.length - 17), StandardCharsets.UTF_8));
    }

    @Test
    void everyWriteHasAFreshIv() throws Exception {
        File file = new File(dir, "session");
        EncryptedFileSessionStore store = store(file);
        Set<String> ivs = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            store.save("same".getBytes(StandardCharsets.UTF_8));
            ivs.add(Arrays.toString(Arrays.copyOfRange(Files.readAllBytes(file.toPath()), 5, 17)));
        }
        assertEquals(50, ivs.size());
    }

    @Test
    void anyChangedByteMakesItUnreadableAndNothingIsDeleted() throws Exception {
        File file = new File(dir, "session");
        store(file).save("a session".getBytes(StandardCharsets.UTF_8));
        byte[] sealed = Files.readAllBytes(file.toPath());
        for (int i = 0; i < sealed.length; i++) {
            byte[] tampered = sealed.clone();
            tampered[i] ^= 0x01;
            Files.write(file.toPath(), tampered);
            assertThrows(SessionStoreException.class, () -> store(file).load(), "byte " + i);
            assertTrue(file.exists());
        }
        Files.write(file.toPath(), Arrays.copyOf(sealed, sealed.length - 1));
        assertThrows(SessionStoreException.class, () -> store(file).load());
        Files.write(file.toPath(), sealed);
        assertArrayEquals("a session".getBytes(StandardCharsets.UTF_8), store(file).load());
    }

    @Test
    void anotherKeyOrAnotherFileNameCannotRead() throws Exception {
        File file = new File(dir, "session");
        store(file).save("x".getBytes(StandardCharsets.UTF_8));
        byte[] other = new byte[32];
        other[0] = 1;
        assertThrows(SessionStoreException.class, () -> new EncryptedFileSessionStore(file, SoftwareKeyProvider.of(other)).load());
        File moved = new File(dir, "other-session");
        Files.copy(file.toPath(), moved.toPath());
        assertThrows(SessionStoreException.class, () -> store(moved).load());  // the file's purpose is bound in
    }

    @Test
    void writesAreAtomicPrivateAndLeaveNoTemporaryFiles() throws Exception {
        File file = new File(dir, "signin/session");
        EncryptedFileSessionStore store = store(file);
        for (int i = 0; i < 20; i++) {
            store.save(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(Set.of("session"), Set.of(file.getParentFile().list((d, n) -> !n.endsWith(".lock"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.toPath())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParentFile().toPath())));
    }

    @Test
    void theLockIsExclusiveAcrossThreadsAndReentrant() throws Exception {
        EncryptedFileSessionStore store = store(new File(dir, "session"));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            Future<?>[] all = new Future<?>[60];
            for (int i = 0; i < all.length; i++) {
                all[i] = pool.submit(() -> {
                    StoreLock outer = store.lock();
                    StoreLock inner = store.lock();  // reentrant for the holder
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    inside.decrementAndGet();
                    inner.close();
                    outer.close();
                    return null;
                });
            }
            for (Future<?> f : all) {
                f.get(20, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, most.get());
    }

    @Test
    void aKeyFileIsMadeOnceAndKept() throws Exception {
        File keyFile = new File(dir, "keys/session.key");
        SoftwareKeyProvider provider = SoftwareKeyProvider.inFile(keyFile);
        byte[] first = provider.secretKey().getEncoded();
        assertArrayEquals(first, SoftwareKeyProvider.inFile(keyFile).secretKey().getEncoded());
        assertEquals(32, first.length);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile.toPath())));
    }
}

package dev.signinbackend.client;

import java.security.GeneralSecurityException;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * A {@link KeyProvider} that behaves as Android's keystore does for the store (AOSP's
 * {@code AndroidKeyStoreSpi}): {@code getKey} answers null for an alias it does not hold, throws
 * {@link UnrecoverableKeyException} for a key it holds but cannot recover, and a busy keystore
 * throws {@link KeyStoreException}; {@code deleteEntry} removes the alias. The test moves it
 * between those states.
 */
final class FakeKeystoreKeys implements KeyProvider {
    enum Mode { NORMAL, BUSY, UNRECOVERABLE }

    private SecretKey key;
    volatile Mode mode = Mode.NORMAL;
    int discarded;

    @Override
    public synchronized SecretKey secretKey() throws GeneralSecurityException {
        SecretKey existing = existingKey();
        if (existing == null) {
            key = new SecretKeySpec(Bytes.random(32), "AES");
        }
        return key;
    }

    @Override
    public synchronized SecretKey existingKey() throws GeneralSecurityException {
        if (mode == Mode.BUSY) {
            throw new KeyStoreException("keystore busy");
        }
        if (mode == Mode.UNRECOVERABLE) {
            throw new UnrecoverableKeyException("key unrecoverable");
        }
        return key;
    }

    @Override
    public boolean isPermanentLoss(GeneralSecurityException e) {
        return e instanceof UnrecoverableKeyException;
    }

    @Override
    public synchronized void discard() {
        discarded++;
        key = null;
        mode = Mode.NORMAL;
    }

    /** The key entry is gone (a keystore reset), the file stays. */
    synchronized void lose() {
        key = null;
    }
}

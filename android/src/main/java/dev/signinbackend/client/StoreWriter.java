package dev.signinbackend.client;

import java.util.concurrent.RejectedExecutionException;

/**
 * The session's writes to its store. A write that fails is owed, never abandoned: the session
 * keeps the newer state in memory (it never falls back to the older stored token), retries the
 * write at every call and on a backoff (1, 2, 4, 8, 16 s), and does not re-read the store while it
 * owes it (memory is newer). Every method runs under the {@link SessionCore}'s monitor.
 */
final class StoreWriter {
    private enum Owed { NOTHING, SAVE, REMOVE }

    private final SignInConfiguration config;
    private final SessionCore core;
    private Owed owed = Owed.NOTHING;
    private boolean retryScheduled;

    StoreWriter(SignInConfiguration config, SessionCore core) {
        this.config = config;
        this.core = core;
    }

    /** Saves {@code next} (null: removes); a failure is remembered and retried. */
    void write(StoredSession next) {
        try {
            if (next == null) {
                config.store.remove();
            } else {
                config.store.save(next.encode());
            }
            owed = Owed.NOTHING;
        } catch (SessionStoreException e) {
            owed = next == null ? Owed.REMOVE : Owed.SAVE;
            scheduleRetry();
        }
    }

    /**
     * Saves {@code next} now and says whether it is on disk. A failure is not owed: the caller keeps
     * the state the store holds (the in-flight mark is written before a refresh leaves, the rotated
     * token before it is presented; neither may exist in memory only). What was owed stays owed.
     */
    boolean writeNow(StoredSession next) {
        try {
            config.store.save(next.encode());
            owed = Owed.NOTHING;
            return true;
        } catch (SessionStoreException e) {
            return false;
        }
    }

    /** The store's removal is owed from now on (a sign-out ended the session; the lock comes next). */
    void oweRemoval() {
        owed = Owed.REMOVE;
    }

    boolean owes() {
        return owed != Owed.NOTHING;
    }

    boolean owesRemoval() {
        return owed == Owed.REMOVE;
    }

    private void scheduleRetry() {
        if (retryScheduled) {
            return;
        }
        retryScheduled = true;
        try {
            config.executor.execute(this::retryWithBackoff);
        } catch (RejectedExecutionException e) {
            retryScheduled = false;  // the next call retries the write
        }
    }

    private void retryWithBackoff() {
        try {
            for (long delay : new long[] {1_000, 2_000, 4_000, 8_000, 16_000}) {
                config.clock.sleep(delay);
                core.flushOwedWrite();
                if (!core.owesStore()) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (core) {
                retryScheduled = false;
            }
        }
    }
}

package dev.signinbackend.client;

import java.util.concurrent.locks.ReentrantLock;

/** Keeps the session in memory (tests, previews, a process that must not persist anything). */
public final class InMemorySessionStore implements SessionStore {
    private final ReentrantLock lock = new ReentrantLock();
    private byte[] data;

    public InMemorySessionStore() {
        this(null);
    }

    /** Starts with {@code data} stored (a copy). */
    public InMemorySessionStore(byte[] data) {
        this.data = data == null ? null : data.clone();
    }

    @Override
    public synchronized byte[] load() {
        return data == null ? null : data.clone();
    }

    @Override
    public synchronized void save(byte[] data) {
        this.data = data.clone();
    }

    @Override
    public synchronized void remove() {
        data = null;
    }

    @Override
    public StoreLock lock() {
        lock.lock();
        return lock::unlock;
    }
}

package dev.signinbackend.client;

import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move: sleeping advances it at once (no test waits on real time). */
final class FakeClock implements Clock {
    final AtomicLong wall;
    final AtomicLong monotonic = new AtomicLong(1_000_000);

    FakeClock(long wallMillis) {
        this.wall = new AtomicLong(wallMillis);
    }

    @Override
    public long wallMillis() {
        return wall.get();
    }

    @Override
    public long monotonicMillis() {
        return monotonic.get();
    }

    @Override
    public void sleep(long millis) {
        advance(millis);
    }

    void advance(long millis) {
        wall.addAndGet(millis);
        monotonic.addAndGet(millis);
    }
}

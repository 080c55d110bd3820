package dev.signinbackend.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one refresh in flight for a session's generation: every caller that needs it joins
 * {@link #future}; the caller that created it starts it ({@link #claimStart()}), outside the
 * session's lock.
 */
final class RefreshFlight {
    final long generation;
    final boolean force;
    final String staleAccessKeyId;
    /** The session's rotation when the flight was created: a higher one found later was someone else's refresh. */
    final long rotationAtStart;
    final SerialLane lane;
    final CompletableFuture<StoredSession> future = new CompletableFuture<>();
    private final AtomicBoolean unstarted;

    RefreshFlight(long generation, boolean force, String staleAccessKeyId, long rotationAtStart, SerialLane lane) {
        this.generation = generation;
        this.force = force;
        this.staleAccessKeyId = staleAccessKeyId;
        this.rotationAtStart = rotationAtStart;
        this.lane = lane;
        this.unstarted = new AtomicBoolean(lane != null);
    }

    /** No refresh needed: {@code session} is good as it is. */
    static RefreshFlight done(StoredSession session) {
        RefreshFlight f = new RefreshFlight(-1, false, null, session.rotation, null);
        f.future.complete(session);
        return f;
    }

    /** True once, for the caller that must queue the flight's job. */
    boolean claimStart() {
        return unstarted.compareAndSet(true, false);
    }
}

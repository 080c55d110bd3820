package dev.signinbackend.client;

import java.util.concurrent.RejectedExecutionException;

/**
 * A refresh flight's job in the session's lane: under the store's lock, reconcile with what the
 * store holds (another process may have refreshed already), then refresh only if still needed.
 * Every joiner of the flight hears its outcome.
 */
final class RefreshJob implements SerialLane.Job {
    private final RefreshFlight flight;
    private final SignInConfiguration config;
    private final SessionCore core;
    private final Refresher refresher;
    private final Delivery delivery;

    RefreshJob(RefreshFlight flight, SignInConfiguration config, SessionCore core, Refresher refresher,
            Delivery delivery) {
        this.flight = flight;
        this.config = config;
        this.core = core;
        this.refresher = refresher;
        this.delivery = delivery;
    }

    @Override
    public void run() {
        try {
            StoredSession result = refreshUnderLock();
            core.flightEnded(flight);
            flight.future.complete(result);
        } catch (SignInException | RuntimeException e) {
            core.flightEnded(flight);
            flight.future.completeExceptionally(e);
        }
    }

    private StoredSession refreshUnderLock() throws SignInException {
        StoreLock held = delivery.lockStore("refresh");
        try {
            StoredSession s = core.reconcile(flight.generation, "refresh");
            boolean someoneRefreshed = s.rotation > flight.rotationAtStart;
            if (flight.staleAccessKeyId != null && !s.credentials.accessKeyId.equals(flight.staleAccessKeyId)) {
                return s;  // already replaced: the caller retries with these
            }
            if (someoneRefreshed && (flight.force || !core.needsRefresh(s))) {
                return s;
            }
            if (config.refreshPolicy == RefreshPolicy.READ_ONLY) {
                if (flight.force || core.expired(s)) {
                    throw SignInException.of(FailureKind.REFRESH_NOT_ALLOWED, "refresh", "the main process refreshes");
                }
                return s;  // used until they expire; the main process renews them
            }
            boolean onlySettling = !flight.force && !core.needsRefresh(s);
            try {
                return refresher.refresh(s, flight.generation);
            } catch (SignInException e) {
                if (onlySettling && keepsSession(e)) {
                    return s;  // settling a marked token can wait: the credentials held are still good
                }
                throw e;
            }
        } finally {
            held.close();
        }
    }

    /** A failure after which the session still holds these credentials (nothing ended or changed it). */
    private static boolean keepsSession(SignInException e) {
        return !e.endsSession() && e.kind() != FailureKind.SESSION_CHANGED && e.kind() != FailureKind.NOT_SIGNED_IN
                && e.kind() != FailureKind.CANCELLED;
    }

    @Override
    public void abandon(RejectedExecutionException reason) {
        core.flightEnded(flight);
        flight.future.completeExceptionally(SignInException.of(FailureKind.CANCELLED, "refresh", "executor refused"));
    }
}

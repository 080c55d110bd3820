package dev.signinbackend.client;

/**
 * One refresh on the wire, as the contract's rotation asks of a client:
 * <ul>
 *   <li>the same token on every attempt;
 *   <li>each attempt waits the function's whole timeout (plus the network's margin) before it is
 *       abandoned, so an attempt that reaches the function late cannot overtake its retry;
 *   <li>a lost or unreadable answer (a timeout, a broken connection, a 429 or 5xx without an
 *       envelope, a body that does not decode, UPSTREAM_UNAVAILABLE, CONFLICT) is retried while the
 *       retry can start within the server's reuse grace of the first attempt, and never after: then
 *       the call fails "retry later" and the session keeps its token;
 *   <li>the answer is adopted only if the session is still the one that asked, and stored before
 *       anyone sees it;
 *   <li>the session ends only on SESSION_INVALID, ACCOUNT_NOT_FOUND or ACCOUNT_DISABLED, and only
 *       while the store still holds the token that was refused.
 * </ul>
 */
final class Refresher {
    /** A bound on attempts whatever the delays (the window bounds them first with the defaults). */
    static final int MAX_ATTEMPTS = 8;

    private final SignInConfiguration config;
    private final SessionCore core;
    private final FunctionCalls calls;

    Refresher(SignInConfiguration config, SessionCore core, FunctionCalls calls) {
        this.config = config;
        this.core = core;
        this.calls = calls;
    }

    StoredSession refresh(StoredSession current, long generation) throws SignInException {
        Clock clock = config.clock;
        long started = clock.monotonicMillis();
        long firstReachingAttempt = -1;  // start of the first attempt that may have reached the function
        for (int attempt = 1; ; attempt++) {
            long attemptStarted = clock.monotonicMillis();
            try {
                Envelope answer = calls.call(SignInFunction.REFRESH, "refresh",
                        FunctionCalls.request("refreshToken", current.refreshToken, "action", "refresh"));
                StoredSession next = StoredSession.fromAnswer(answer, clock.wallMillis(), current.signInProvider,
                        current.signedInAtMillis, current.rotation + 1);
                return core.commitRefresh(generation, next);
            } catch (SignInException e) {
                if (e.kind() == FailureKind.SESSION_CHANGED) {
                    throw e;
                }
                core.checkGeneration(generation, "refresh");  // a late failure belongs to a session that is gone
                if (e.endsSession()) {
                    core.endIfStillHeld(generation, current.refreshToken, SignOutReason.of(e.code()));
                    throw e;
                }
                if (!e.isRetryable() || attempt >= MAX_ATTEMPTS) {
                    throw e;
                }
                if (firstReachingAttempt < 0 && !e.certainlyNotSent()) {
                    firstReachingAttempt = attemptStarted;
                }
                long delay = config.retryDelaysMillis[Math.min(attempt - 1, config.retryDelaysMillis.length - 1)];
                // The grace counts from the rotation, which is after the first attempt that may have
                // reached the function began; attempts that never left the device do not count, but
                // bound the whole call by the same window.
                long since = firstReachingAttempt >= 0 ? firstReachingAttempt : started;
                if (clock.monotonicMillis() - since + delay >= config.refreshRetryWindowMillis()) {
                    // Past the grace a retry with this token could be "reuse" (if the lost attempt
                    // rotated it) and revoke the session: stop here, keep the session, retry later.
                    throw e;
                }
                sleep(delay);
                core.checkGeneration(generation, "refresh");
            }
        }
    }

    private void sleep(long millis) throws SignInException {
        try {
            config.clock.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SignInException.of(FailureKind.CANCELLED, "refresh", "interrupted");
        }
    }
}

package dev.signinbackend.client;

/**
 * One refresh on the wire, as the contract's rotation asks of a client:
 * <ul>
 *   <li>the same token on every attempt;
 *   <li>each attempt waits the function's whole timeout (plus the network's margin) before it is
 *       abandoned, so an attempt that reaches the function late cannot overtake its retry;
 *   <li>an attempt whose answer was not read (a timeout, a broken connection, an unreadable body, a
 *       5xx other than 503 without an envelope) may have rotated the token: the session marks it
 *       ({@link StoredSession#unansweredSinceMillis}, stored) and presents it again only while a
 *       retry can start within the retry window of the first such attempt, inside the server's
 *       grace; never after it: then the session ends here, unpresented. Failures that consumed
 *       nothing (OFFLINE, 429, 503, UPSTREAM_UNAVAILABLE, CONFLICT) are retried within the same
 *       window of the call's start and mark nothing;
 *   <li>the answer is adopted only if the session is still the one that asked, and stored before
 *       anyone sees it;
 *   <li>the session ends only on SESSION_INVALID, ACCOUNT_NOT_FOUND or ACCOUNT_DISABLED, and only
 *       while the store still holds the token that was refused.
 * </ul>
 * Runs in the session's lane under the store's lock (docs/android.md, "What the session guarantees").
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
        for (int attempt = 1; ; attempt++) {
            current = core.requirePresentable(generation, "refresh");  // past its window: ends here, unpresented
            long attemptWall = clock.wallMillis();
            long attemptMonotonic = clock.monotonicMillis();
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
                if (e.mayHaveRotated()) {
                    core.markUnanswered(generation, current.refreshToken, attemptWall, attemptMonotonic);
                }
                if (!e.isRetryable() || attempt >= MAX_ATTEMPTS) {
                    throw e;
                }
                long delay = config.retryDelaysMillis[Math.min(attempt - 1, config.retryDelaysMillis.length - 1)];
                // The grace counts from the rotation, which is after the first attempt that may have
                // rotated began; failures that consumed nothing bound the call by the same window.
                long sinceUnanswered = core.millisSinceUnanswered();
                long elapsed = sinceUnanswered >= 0 ? sinceUnanswered : clock.monotonicMillis() - started;
                if (elapsed + delay >= config.refreshRetryWindowMillis()) {
                    throw e;  // retry later; a marked token is never presented after its window
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

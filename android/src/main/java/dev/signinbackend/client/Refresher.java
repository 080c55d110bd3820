package dev.signinbackend.client;

/**
 * One refresh on the wire, as the contract's rotation asks of a client (v5, "A phone's life never
 * ends a session"):
 * <ul>
 *   <li>the durable "in flight" mark ({@link StoredSession#unansweredSinceMillis}) is on disk
 *       before the request leaves, so a process killed while it is out, and every other process,
 *       knows the token may have rotated; a mark that cannot be written sends nothing;
 *   <li>the same token on every attempt, and at every later call until an answer is read, however
 *       late: the server takes a just-rotated token for as long as its successor was never
 *       presented, and this client presents only what it stored. No time window, no clock that a
 *       deep sleep stops, decides whether the token may be presented;
 *   <li>each attempt waits the function's whole timeout (plus the network's margin) before it is
 *       abandoned, so an attempt that reaches the function late cannot overtake its retry; one call
 *       retries within {@link SignInConfiguration#retryBudgetMillis} and then fails with
 *       RETRY_LATER, keeping the session;
 *   <li>the answer is adopted only if the session is still the one that asked, and is stored before
 *       anyone sees it; a store that cannot be written keeps the old token (still taken);
 *   <li>the session ends only on SESSION_INVALID, ACCOUNT_NOT_FOUND or ACCOUNT_DISABLED, and only
 *       while the store still holds the token that was refused.
 * </ul>
 * Runs in the session's lane under the store's lock (docs/android.md, "What the session guarantees").
 */
final class Refresher {
    /** A bound on attempts whatever the delays (the budget bounds them first with the defaults). */
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
        boolean mayHaveRotated = current.isUnanswered();  // an earlier call's mark stays until an answer
        for (int attempt = 1; ; attempt++) {
            current = core.markInFlight(generation);  // on disk before the request leaves
            StoredSession next;
            try {
                Envelope answer = calls.call(SignInFunction.REFRESH, "refresh",
                        FunctionCalls.request("refreshToken", current.refreshToken, "action", "refresh"));
                next = StoredSession.fromAnswer(answer, clock.wallMillis(), current.signInProvider,
                        current.signedInAtMillis, current.rotation + 1);
            } catch (SignInException e) {
                if (e.kind() == FailureKind.SESSION_CHANGED) {
                    throw e;
                }
                core.checkGeneration(generation, "refresh");  // a late failure belongs to a session that is gone
                if (e.endsSession()) {
                    core.endIfStillHeld(generation, current.refreshToken, SignOutReason.of(e.code()));
                    throw e;
                }
                mayHaveRotated |= e.mayHaveRotated();
                long delay = config.retryDelaysMillis[Math.min(attempt - 1, config.retryDelaysMillis.length - 1)];
                // Measured on the monotonic clock, which a deep sleep stops: it bounds only how long
                // this caller waits, never whether the token may be presented.
                boolean giveUp = !e.isRetryable() || attempt >= MAX_ATTEMPTS
                        || clock.monotonicMillis() - started + delay >= config.retryBudgetMillis;
                if (giveUp) {
                    if (!mayHaveRotated) {
                        core.clearMark(generation, current.refreshToken);  // nothing reached the function
                    }
                    throw e;
                }
                sleep(delay);
                core.checkGeneration(generation, "refresh");
                continue;
            }
            return core.commitRefresh(generation, next);
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

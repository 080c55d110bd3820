package dev.signinbackend.client;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * How a {@link SignInSession} talks, stores, refreshes and calls back. Build one with
 * {@link #builder(SignInTransport, SessionStore, Executor)}; the defaults fit the template's
 * deployment (function timeouts 10/10/30 s, a 30 s reuse grace).
 */
public final class SignInConfiguration {
    final SignInTransport transport;
    final SessionStore store;
    final Executor executor;
    final Executor callbackExecutor;
    final Clock clock;
    final String device;
    final RefreshPolicy refreshPolicy;
    final long credentialsMarginMillis;
    final long minimumRefreshIntervalMillis;
    final long refreshReuseGraceMillis;
    final long graceSafetyMillis;
    final long[] retryDelaysMillis;
    final Map<SignInFunction, Long> functionTimeoutMillis;
    final long networkMarginMillis;

    private SignInConfiguration(Builder b) {
        transport = b.transport;
        store = b.store;
        executor = b.executor;
        callbackExecutor = b.callbackExecutor == null ? b.executor : b.callbackExecutor;
        clock = b.clock;
        device = b.device;
        refreshPolicy = b.refreshPolicy;
        credentialsMarginMillis = b.credentialsMarginMillis;
        minimumRefreshIntervalMillis = b.minimumRefreshIntervalMillis;
        refreshReuseGraceMillis = b.refreshReuseGraceMillis;
        graceSafetyMillis = b.graceSafetyMillis;
        retryDelaysMillis = b.retryDelaysMillis.clone();
        functionTimeoutMillis = new EnumMap<>(b.functionTimeoutMillis);
        networkMarginMillis = b.networkMarginMillis;
    }

    /**
     * @param executor runs the blocking work (HTTP, file I/O); a small pool, never the main thread's
     *     executor. Futures complete, and listeners are called, on the callback executor (default:
     *     this one; on Android pass {@code ContextCompat.getMainExecutor(context)} to
     *     {@link Builder#callbackExecutor}).
     */
    public static Builder builder(SignInTransport transport, SessionStore store, Executor executor) {
        return new Builder(transport, store, executor);
    }

    /** How long one attempt waits for its answer: the function's own timeout plus the network's margin. */
    long attemptTimeoutMillis(SignInFunction function) {
        return functionTimeoutMillis.get(function) + networkMarginMillis;
    }

    /**
     * A refresh answer that was not read is retried with the same token only if the retry starts
     * within this of the first attempt that may have rotated it (default 30 − 10 = 20 s, the Swift
     * client's {@code refreshRetryWindow}): the retry's own trip to the function stays inside the grace.
     */
    long refreshRetryWindowMillis() {
        return Math.max(0, refreshReuseGraceMillis - graceSafetyMillis);
    }

    /** Builds a {@link SignInConfiguration}. */
    public static final class Builder {
        private final SignInTransport transport;
        private final SessionStore store;
        private final Executor executor;
        private Executor callbackExecutor;
        private Clock clock = Clock.SYSTEM;
        private String device;
        private RefreshPolicy refreshPolicy = RefreshPolicy.REFRESHES;
        private long credentialsMarginMillis = 300_000;
        private long minimumRefreshIntervalMillis = 10_000;
        private long refreshReuseGraceMillis = 30_000;
        private long graceSafetyMillis = 10_000;
        private long[] retryDelaysMillis = {500, 1_000, 2_000, 4_000};
        private final Map<SignInFunction, Long> functionTimeoutMillis = new EnumMap<>(SignInFunction.class);
        private long networkMarginMillis = 5_000;

        private Builder(SignInTransport transport, SessionStore store, Executor executor) {
            if (transport == null || store == null || executor == null) {
                throw new IllegalArgumentException("transport, store and executor are required");
            }
            this.transport = transport;
            this.store = store;
            this.executor = executor;
            functionTimeoutMillis.put(SignInFunction.SIGN_IN, 10_000L);
            functionTimeoutMillis.put(SignInFunction.REFRESH, 10_000L);
            functionTimeoutMillis.put(SignInFunction.LINK, 30_000L);
        }

        /** Where futures complete and listeners are called (default: the work executor). */
        public Builder callbackExecutor(Executor callbackExecutor) {
            this.callbackExecutor = callbackExecutor;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The label the session list shows for this sign-in, e.g. "Pixel 8 · Photos 2.3" (at most 64 characters). */
        public Builder device(String device) {
            this.device = device;
            return this;
        }

        public Builder refreshPolicy(RefreshPolicy refreshPolicy) {
            this.refreshPolicy = refreshPolicy;
            return this;
        }

        /**
         * {@code credentials()} refreshes when the credentials expire within this, by the server's
         * clock (default 5 minutes: long enough for the longest single S3 request or multipart part).
         */
        public Builder credentialsMarginMillis(long millis) {
            this.credentialsMarginMillis = millis;
            return this;
        }

        /** Credentials that arrived less than this ago are not refreshed again by the margin rule. */
        public Builder minimumRefreshIntervalMillis(long millis) {
            this.minimumRefreshIntervalMillis = millis;
            return this;
        }

        /** The deployment's {@code REFRESH_REUSE_GRACE_SECONDS}, in milliseconds (default 30 s). */
        public Builder refreshReuseGraceMillis(long millis) {
            this.refreshReuseGraceMillis = millis;
            return this;
        }

        /**
         * How far inside the grace a retry must start (default 10 s: the retry's own trip to the
         * function, which may wait at Lambda's front door; the retry window is the grace minus this).
         */
        public Builder graceSafetyMillis(long millis) {
            this.graceSafetyMillis = millis;
            return this;
        }

        /** Pauses between retries of a refresh (the last one repeats). */
        public Builder retryDelaysMillis(long... delays) {
            if (delays.length == 0) {
                throw new IllegalArgumentException("at least one delay");
            }
            this.retryDelaysMillis = delays.clone();
            return this;
        }

        /** The function's {@code Timeout} in the stack (default: the template's 10 s, 10 s and 30 s). */
        public Builder functionTimeoutMillis(SignInFunction function, long millis) {
            functionTimeoutMillis.put(function, millis);
            return this;
        }

        /** Added to the function's timeout before an attempt is abandoned (default 5 s). */
        public Builder networkMarginMillis(long millis) {
            this.networkMarginMillis = millis;
            return this;
        }

        public SignInConfiguration build() {
            return new SignInConfiguration(this);
        }
    }
}

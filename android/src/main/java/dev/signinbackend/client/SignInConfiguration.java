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
    final long retryBudgetMillis;
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
        retryBudgetMillis = b.retryBudgetMillis;
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

    /** The server's limit on the device label ({@code device}, auth-signin: at most 64 characters). */
    public static final int DEVICE_MAX_CHARS = 64;

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
        private long retryBudgetMillis = 20_000;
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

        /**
         * The label the session list shows for this sign-in, e.g. "Pixel 8 · Photos 2.3".
         *
         * @throws IllegalArgumentException when longer than {@link #DEVICE_MAX_CHARS} (64) characters
         *     (Unicode code points, as the server counts): the server would refuse every sign-in.
         */
        public Builder device(String device) {
            if (device != null && device.codePointCount(0, device.length()) > DEVICE_MAX_CHARS) {
                throw new IllegalArgumentException("the device label is longer than " + DEVICE_MAX_CHARS
                        + " characters; the server refuses such sign-ins");
            }
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

        /**
         * How long one refresh call keeps retrying before it fails with RETRY_LATER (default 20 s,
         * measured from the call's start). It only bounds how long a caller waits: the session is
         * kept and the next call retries with the same token, however much later (contract v5).
         */
        public Builder retryBudgetMillis(long millis) {
            this.retryBudgetMillis = millis;
            return this;
        }

        /**
         * Has no effect since contract v5: the client no longer times its retries against the
         * server's grace (a token whose successor was never presented stays good however late).
         *
         * @deprecated v5 needs no grace on the client; remove the call.
         */
        @Deprecated
        public Builder refreshReuseGraceMillis(long millis) {
            return this;
        }

        /**
         * Has no effect since contract v5 (there is no retry window left to keep inside the grace).
         *
         * @deprecated v5 needs no retry window; remove the call, or use {@link #retryBudgetMillis}
         *     to bound how long one call retries.
         */
        @Deprecated
        public Builder graceSafetyMillis(long millis) {
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

package dev.signinbackend.client;

/**
 * The device's clocks, injected so tests move time. {@link #wallMillis()} is the device's wall
 * clock (which may be hours off: the session judges expiry on the server's clock, see
 * {@link SignInSession}); {@link #monotonicMillis()} measures intervals and never jumps.
 *
 * <p>{@code System.nanoTime()} stops while the phone is in deep sleep, so no decision that ends or
 * keeps a session may rest on it (contract v5: nothing but a definitive answer ends one). It bounds
 * only how long one call keeps retrying ({@link SignInConfiguration.Builder#retryBudgetMillis}),
 * where a clock that stood still merely lets that call try a little longer.
 */
public interface Clock {
    /** Milliseconds since the epoch by the device's wall clock. */
    long wallMillis();

    /** Milliseconds from an arbitrary origin that only moves forward. */
    long monotonicMillis();

    /** Sleeps for {@code millis} (tests advance their clock instead of sleeping). */
    void sleep(long millis) throws InterruptedException;

    /** The system's clocks. */
    Clock SYSTEM = new Clock() {
        @Override
        public long wallMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public long monotonicMillis() {
            return System.nanoTime() / 1_000_000L;
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };
}

package dev.signinbackend.client;

/**
 * A failure's cause as a store exception keeps it: its class and stack, never its message (a
 * message may name a path or a keystore alias). Causes of causes are kept the same way.
 */
final class RedactedCause extends Exception {
    private static final long serialVersionUID = 1L;

    private RedactedCause(Throwable original, int depth) {
        super(original.getClass().getName() + " (message withheld)",
                original.getCause() != null && depth < 8 ? new RedactedCause(original.getCause(), depth + 1) : null);
        setStackTrace(original.getStackTrace());
    }

    static RedactedCause of(Throwable original) {
        return new RedactedCause(original, 0);
    }
}

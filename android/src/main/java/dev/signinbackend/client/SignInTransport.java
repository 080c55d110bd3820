package dev.signinbackend.client;

/**
 * How events reach the functions: {@link FunctionUrlTransport} (the default) or
 * {@link LambdaInvokeTransport} with the app's own Lambda client. Called on the session's
 * executor; blocks until the answer or the timeout.
 */
public interface SignInTransport {
    /**
     * Sends {@code event} (the JSON request) to {@code function} and returns its answer.
     *
     * @param timeoutMillis how long to wait for the answer: the function's own timeout plus the
     *     network's margin. Never give up sooner: an attempt abandoned while the function still runs
     *     could reach it after the retry (the contract's "The app's clients").
     * @throws SignInException {@link FailureKind#OFFLINE} when the request certainly did not leave
     *     the device, {@link FailureKind#TIMED_OUT} or {@link FailureKind#CONNECTION_LOST} when it
     *     may have reached the function but no whole answer came back.
     */
    TransportAnswer send(SignInFunction function, String action, byte[] event, long timeoutMillis)
            throws SignInException;
}

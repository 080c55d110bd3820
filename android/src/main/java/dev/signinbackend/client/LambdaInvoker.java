package dev.signinbackend.client;

/**
 * The app's own Lambda client (e.g. aws-sdk-kotlin's {@code LambdaClient.invoke}, signed with the
 * app's own AWS identity), for {@link LambdaInvokeTransport}.
 */
public interface LambdaInvoker {
    /**
     * Invokes {@code functionName} with {@code payload} (RequestResponse) and returns the answer's
     * payload. Set the SDK's socket timeout to at least {@code timeoutMillis}. Throw a
     * {@link SignInException} of kind {@link FailureKind#OFFLINE} when the request certainly did not
     * leave the device; anything else thrown counts as an answer that may have been lost.
     */
    byte[] invoke(String functionName, byte[] payload, long timeoutMillis) throws Exception;
}

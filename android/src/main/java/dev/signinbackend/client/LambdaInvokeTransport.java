package dev.signinbackend.client;

import java.util.EnumMap;
import java.util.Map;

/** Direct {@code Invoke} through the app's own Lambda client: the answer is the envelope itself. */
public final class LambdaInvokeTransport implements SignInTransport {
    private final LambdaInvoker invoker;
    private final Map<SignInFunction, String> names = new EnumMap<>(SignInFunction.class);

    /** With the template's function names. */
    public LambdaInvokeTransport(LambdaInvoker invoker) {
        this(invoker, SignInFunction.SIGN_IN.defaultName(), SignInFunction.REFRESH.defaultName(),
                SignInFunction.LINK.defaultName());
    }

    /** With the stack's function names (or ARNs). */
    public LambdaInvokeTransport(LambdaInvoker invoker, String signIn, String refresh, String link) {
        this.invoker = invoker;
        names.put(SignInFunction.SIGN_IN, signIn);
        names.put(SignInFunction.REFRESH, refresh);
        names.put(SignInFunction.LINK, link);
    }

    @Override
    public TransportAnswer send(SignInFunction function, String action, byte[] event, long timeoutMillis)
            throws SignInException {
        try {
            byte[] payload = invoker.invoke(names.get(function), event, timeoutMillis);
            return new TransportAnswer(-1, payload == null ? new byte[0] : payload);
        } catch (SignInException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SignInException.of(FailureKind.CONNECTION_LOST, action, "interrupted");
        } catch (Exception e) {
            // The SDK cannot tell us whether the request reached Lambda: count it as a lost answer.
            throw SignInException.of(FailureKind.CONNECTION_LOST, action, e.getClass().getSimpleName());
        }
    }
}

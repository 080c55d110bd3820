package dev.signinbackend.client;

import java.nio.charset.StandardCharsets;
import org.json.JSONException;
import org.json.JSONObject;

/** Sends one event and opens its envelope; every failure becomes a {@link SignInException}. */
final class FunctionCalls {
    private final SignInConfiguration config;

    FunctionCalls(SignInConfiguration config) {
        this.config = config;
    }

    Envelope call(SignInFunction function, String action, JSONObject request) throws SignInException {
        byte[] event = request.toString().getBytes(StandardCharsets.UTF_8);
        TransportAnswer answer = config.transport.send(function, action, event, config.attemptTimeoutMillis(function));
        return Envelope.open(answer, action);
    }

    /** A request object; the names and values are the caller's, never null keys. */
    static JSONObject request(Object... namesAndValues) {
        JSONObject o = new JSONObject();
        try {
            for (int i = 0; i < namesAndValues.length; i += 2) {
                if (namesAndValues[i + 1] != null) {
                    o.put((String) namesAndValues[i], namesAndValues[i + 1]);
                }
            }
        } catch (JSONException e) {
            throw new IllegalArgumentException("not a JSON value", e);
        }
        return o;
    }
}

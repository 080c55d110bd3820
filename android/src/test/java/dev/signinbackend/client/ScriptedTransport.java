package dev.signinbackend.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A transport that records every call and answers through a handler the test sets. */
final class ScriptedTransport implements SignInTransport {
    /** One call as the transport saw it. */
    static final class Call {
        final SignInFunction function;
        final String action;
        final org.json.JSONObject body;
        final long timeoutMillis;

        Call(SignInFunction function, String action, org.json.JSONObject body, long timeoutMillis) {
            this.function = function;
            this.action = action;
            this.body = body;
            this.timeoutMillis = timeoutMillis;
        }

        String token() {
            return body.optString("refreshToken", null);
        }
    }

    interface Handler {
        TransportAnswer answer(Call call) throws SignInException;
    }

    final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    volatile Handler handler;

    ScriptedTransport(Handler handler) {
        this.handler = handler;
    }

    @Override
    public TransportAnswer send(SignInFunction function, String action, byte[] event, long timeoutMillis)
            throws SignInException {
        Call call = new Call(function, action, Answers.object(new String(event, StandardCharsets.UTF_8)), timeoutMillis);
        calls.add(call);
        return handler.answer(call);
    }

    List<Call> calls(String action) {
        List<Call> out = new ArrayList<>();
        synchronized (calls) {
            for (Call c : calls) {
                if (c.action.equals(action)) {
                    out.add(c);
                }
            }
        }
        return out;
    }
}

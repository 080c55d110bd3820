package dev.signinbackend.client;

import java.util.concurrent.atomic.AtomicInteger;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * The functions as the session sees them, for unit tests: sign-in issues a token, refresh rotates
 * it (the presented token must be the current one, or the one just rotated out: within the 30 s
 * grace, or later while its successor has not been presented (contract v5); anything else
 * after that is reuse and revokes the session), credentials live an hour by the server's clock,
 * which is the device's plus {@link #skewMillis}. The other actions record the first presentation
 * of the current token, and answer the just-rotated one with an unpresented successor with
 * SESSION_INVALID, revoking nothing.
 */
final class FakeServer implements ScriptedTransport.Handler {
    static final long CREDENTIALS_MILLIS = 3_600_000;
    static final long GRACE_MILLIS = 30_000;

    private final FakeClock clock;
    volatile long skewMillis;
    /** How long the credentials it issues live, by its clock (negative: already expired). */
    volatile long credentialsMillis = CREDENTIALS_MILLIS;
    private final AtomicInteger issued = new AtomicInteger();
    private volatile String current;
    private String rotatedOut;
    private long rotatedAt;
    /** Whether {@link #current} has been presented (to any action): then its predecessor is done. */
    private boolean successorPresented;
    /** The Apple {@code sub} of the account's Apple link (an app transfer's re-key changes it). */
    volatile String appleId = "001.a.1";
    /** Set when a token the session replaced came back after the grace: the session is revoked. */
    volatile boolean reuseDetected;

    FakeServer(FakeClock clock) {
        this.clock = clock;
    }

    long serverNow() {
        return clock.wallMillis() + skewMillis;
    }

    String current() {
        return current;
    }

    /** Ends the session as a sign-out elsewhere would. */
    void revoke() {
        current = null;
        rotatedOut = null;
    }

    @Override
    public synchronized TransportAnswer answer(ScriptedTransport.Call call) {
        switch (call.action) {
            case "signin":
                return issue();
            case "refresh":
                if (call.token().equals(current)) {
                    rotatedOut = current;
                    rotatedAt = serverNow();
                    return issue();
                }
                if (call.token().equals(rotatedOut) && current != null) {
                    if (serverNow() - rotatedAt < GRACE_MILLIS || !successorPresented) {
                        return issue();  // a lost answer's retry: another new token, the lost one superseded
                    }
                    reuseDetected = true;
                    current = null;
                }
                return Answers.error("SESSION_INVALID", 401);
            case "signout":
                current = null;
                rotatedOut = null;
                return Answers.ok(json("signedOut", true), serverNow());
            case "list":
                if (!presentedToAction(call.token())) {
                    return Answers.error("SESSION_INVALID", 401);
                }
                try {
                    JSONObject session = new JSONObject().put("sessionId", "0123456789abcdef0123456789abcdef")
                            .put("provider", "apple").put("signedInAt", "2026-01-01T00:00:00Z")
                            .put("expiresAt", "2026-02-01T00:00:00Z").put("current", true);
                    return Answers.ok(new JSONObject().put("sessions", new JSONArray().put(session)), serverNow());
                } catch (JSONException e) {
                    throw new IllegalStateException(e);
                }
            case "link":
            case "unlink":
                presentedToAction(call.token());
                try {
                    return Answers.ok(new JSONObject().put("status", call.action + "ed").put("user", Answers.user()),
                            serverNow());
                } catch (JSONException e) {
                    throw new IllegalStateException(e);
                }
            default:
                presentedToAction(call.token());
                return Answers.ok(json("status", "ok"), serverNow());
        }
    }

    /** An action other than refresh: the current token's first presentation is recorded; anything else is refused. */
    private boolean presentedToAction(String token) {
        if (token != null && token.equals(current)) {
            successorPresented = true;
            return true;
        }
        return false;
    }

    private TransportAnswer issue() {
        int n = issued.incrementAndGet();
        current = "rt-" + n;
        successorPresented = false;
        return Answers.session(current, "AKIA" + n, serverNow() + credentialsMillis, serverNow(), appleId);
    }

    private static JSONObject json(String name, Object value) {
        try {
            return new JSONObject().put(name, value);
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }
}

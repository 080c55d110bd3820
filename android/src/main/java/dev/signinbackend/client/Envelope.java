package dev.signinbackend.client;

import java.nio.charset.StandardCharsets;
import org.json.JSONObject;

/**
 * The contract's envelope: {@code {"success": true, "data": …, "meta": {"requestId", "timestamp"}}}
 * or {@code {"success": false, "error": {"code", "message"}, …}}. A body that is not an envelope
 * is "unavailable" when its status says throttling or a gateway (429, 5xx), else malformed:
 * both are "retry later", never a reason to end the session.
 */
final class Envelope {
    /** The {@code data} object of a successful answer. */
    final WireReader data;
    /** {@code meta.timestamp}: the server's clock when it answered (epoch milliseconds). */
    final long serverTimeMillis;

    private Envelope(WireReader data, long serverTimeMillis) {
        this.data = data;
        this.serverTimeMillis = serverTimeMillis;
    }

    /** The successful answer's payload, or the failure the answer means. */
    static Envelope open(TransportAnswer answer, String action) throws SignInException {
        int status = answer.statusCode;
        boolean throttledOrGateway = status == 429 || status >= 500;
        JSONObject object;
        try {
            object = WireReader.parseObject(new String(answer.body, StandardCharsets.UTF_8), action);
        } catch (SignInException e) {
            if (throttledOrGateway) {
                throw SignInException.unavailable(action, status, "no envelope");
            }
            throw e;
        }
        Object success = object.opt("success");
        if (!(success instanceof Boolean)) {
            if (throttledOrGateway) {
                throw SignInException.unavailable(action, status, "no envelope");
            }
            if (status < 0 && object.has("errorType")) {
                // A direct invoke whose function failed in a way it could not classify (a bug):
                // nothing was consumed on the server.
                throw SignInException.unavailable(action, status, "the function reported an error");
            }
            throw SignInException.malformed(action, "success", object.has("success") ? "is not a boolean" : "missing");
        }
        WireReader root = new WireReader(object, "", action);
        if ((Boolean) success) {
            WireReader data = root.object("data");
            long serverTime = root.object("meta").timestamp("timestamp");
            return new Envelope(data, serverTime);
        }
        WireReader error = root.object("error");
        throw SignInException.server(action, ErrorCode.of(error.string("code")), error.string("message"), status);
    }
}

package dev.signinbackend.client;

import org.json.JSONException;
import org.json.JSONObject;

/**
 * The STS credentials for the user's own prefix. {@link #toString()} never shows the secret or
 * the session token.
 */
public final class TemporaryCredentials {
    public final String accessKeyId;
    public final String secretAccessKey;
    public final String sessionToken;
    /**
     * When they expire, epoch milliseconds, by the server's clock (what STS said). A device clock
     * may be hours off: compare it with the device's clock only through
     * {@link SignInSession#deviceTimeMillis(long)}.
     */
    public final long expirationMillis;

    public TemporaryCredentials(String accessKeyId, String secretAccessKey, String sessionToken,
            long expirationMillis) {
        this.accessKeyId = accessKeyId;
        this.secretAccessKey = secretAccessKey;
        this.sessionToken = sessionToken;
        this.expirationMillis = expirationMillis;
    }

    static TemporaryCredentials read(WireReader r) throws SignInException {
        return new TemporaryCredentials(r.string("accessKeyId"), r.string("secretAccessKey"), r.string("sessionToken"),
                r.timestamp("expiration"));
    }

    JSONObject toJson() throws JSONException {
        return new JSONObject().put("accessKeyId", accessKeyId).put("secretAccessKey", secretAccessKey)
                .put("sessionToken", sessionToken).put("expiration", Timestamps.format(expirationMillis));
    }

    @Override
    public String toString() {
        String prefix = accessKeyId.length() > 4 ? accessKeyId.substring(0, 4) : accessKeyId;
        return "TemporaryCredentials(" + prefix + "…, expires " + Timestamps.format(expirationMillis) + ")";
    }
}

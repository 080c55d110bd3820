package dev.signinbackend.client;

import java.nio.charset.StandardCharsets;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/** Envelopes as the functions answer them (docs/API.md), for the scripted transport. */
final class Answers {
    static final String USER_ID = "6f1c2e0a-3b4d-4c5e-8f90-a1b2c3d4e5f6";

    private Answers() {}

    static JSONObject user() {
        return user("001.a.1");
    }

    /** The account, its Apple link's {@code sub} being {@code appleId}. */
    static JSONObject user(String appleId) {
        try {
            return new JSONObject().put("serviceUserID", USER_ID).put("displayName", "Ada").put("email", "ada@example.com")
                    .put("createdAt", "2026-01-01T00:00:00Z").put("lastUpdated", "2026-01-01T00:00:00Z")
                    .put("primaryProvider", "apple")
                    .put("providers", new JSONArray().put(new JSONObject().put("type", "apple").put("id", appleId)
                            .put("isPrimary", true).put("linkedAt", "2026-01-01T00:00:00Z")))
                    .put("subscription", new JSONObject().put("tier", "free").put("storageLimit", 209715200L)
                            .put("storageUsed", 0).put("expiryDate", "2026-02-01T00:00:00Z"));
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A sign-in or refresh answer: {@code token}, credentials {@code keyId} expiring at {@code expiresAt} (server time). */
    static TransportAnswer session(String token, String keyId, long expiresAt, long serverNow) {
        return session(token, keyId, expiresAt, serverNow, "001.a.1");
    }

    static TransportAnswer session(String token, String keyId, long expiresAt, long serverNow, String appleId) {
        try {
            JSONObject data = new JSONObject().put("isNewUser", true).put("user", user(appleId))
                    .put("credentials", new JSONObject().put("accessKeyId", keyId).put("secretAccessKey", "secret-" + keyId)
                            .put("sessionToken", "st-" + keyId).put("expiration", Timestamps.format(expiresAt)))
                    .put("storage", new JSONObject().put("bucket", "b").put("region", "us-east-1")
                            .put("prefix", "users/" + USER_ID + "/"))
                    .put("refreshToken", token).put("refreshTokenExpiresAt", Timestamps.format(serverNow + 30L * 86_400_000));
            return ok(data, serverNow);
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }

    static TransportAnswer ok(JSONObject data, long serverNow) {
        try {
            JSONObject envelope = new JSONObject().put("success", true).put("data", data)
                    .put("meta", new JSONObject().put("requestId", "r").put("timestamp", Timestamps.format(serverNow)));
            return new TransportAnswer(200, envelope.toString().getBytes(StandardCharsets.UTF_8));
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }

    static TransportAnswer error(String code, int status) {
        try {
            JSONObject envelope = new JSONObject().put("success", false)
                    .put("error", new JSONObject().put("code", code).put("message", "m"))
                    .put("meta", new JSONObject().put("requestId", "r").put("timestamp", "2026-01-01T00:00:00Z"));
            return new TransportAnswer(status, envelope.toString().getBytes(StandardCharsets.UTF_8));
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }

    static TransportAnswer raw(int status, String body) {
        return new TransportAnswer(status, body.getBytes(StandardCharsets.UTF_8));
    }

    static JSONObject object(String json) {
        try {
            return new JSONObject(json);
        } catch (JSONException e) {
            throw new IllegalStateException(e);
        }
    }
}

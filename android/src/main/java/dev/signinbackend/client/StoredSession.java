package dev.signinbackend.client;

import java.nio.charset.StandardCharsets;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * What the store holds, versioned ({@code format}): a later client reads older formats; a format
 * newer than this client is "unreadable", never a reason to delete it (a downgrade, another
 * process on an older version).
 */
final class StoredSession {
    static final int FORMAT = 1;

    final String refreshToken;
    final long refreshTokenExpiresAtMillis;
    final TemporaryCredentials credentials;
    final StorageLocation storage;
    final User user;
    /** The provider this session signed in with: unlinking it ends the session. */
    final Provider signInProvider;
    /** Server time of the sign-in (the recent-auth window counts from it). */
    final long signedInAtMillis;
    /** Server time at which these credentials arrived. */
    final long receivedAtMillis;
    /** Server clock minus device clock, measured at the last answer ({@code meta.timestamp}). */
    final long serverOffsetMillis;
    /** Grows by one at each rotation: a process that re-reads the store adopts only newer states. */
    final long rotation;
    /**
     * Set ({@link #NOT_UNANSWERED} otherwise) when a refresh presenting {@link #refreshToken} may
     * have reached the function and rotated it without our reading the answer: the device's wall
     * clock at the start of the first such attempt. Stored, so a restarted process and the other
     * processes sharing the store know it too. Such a token is presented again only inside the
     * retry window of this, i.e. inside the server's grace; never after it. A session from an
     * answer has none (the Swift client's {@code StoredSession.unansweredSince}).
     */
    final long unansweredSinceMillis;

    static final long NOT_UNANSWERED = -1;

    StoredSession(String refreshToken, long refreshTokenExpiresAtMillis, TemporaryCredentials credentials,
            StorageLocation storage, User user, Provider signInProvider, long signedInAtMillis, long receivedAtMillis,
            long serverOffsetMillis, long rotation, long unansweredSinceMillis) {
        this.refreshToken = refreshToken;
        this.refreshTokenExpiresAtMillis = refreshTokenExpiresAtMillis;
        this.credentials = credentials;
        this.storage = storage;
        this.user = user;
        this.signInProvider = signInProvider;
        this.signedInAtMillis = signedInAtMillis;
        this.receivedAtMillis = receivedAtMillis;
        this.serverOffsetMillis = serverOffsetMillis;
        this.rotation = rotation;
        this.unansweredSinceMillis = unansweredSinceMillis;
    }

    /** A session from an answer carrying credentials, storage, user and a refresh token (sign-in, refresh). */
    static StoredSession fromAnswer(Envelope answer, long deviceNowMillis, Provider provider, long signedInAtMillis,
            long rotation) throws SignInException {
        WireReader data = answer.data;
        TemporaryCredentials credentials = TemporaryCredentials.read(data.object("credentials"));
        StorageLocation storage = StorageLocation.read(data.object("storage"));
        User user = User.read(data.object("user"));
        String token = data.string("refreshToken");
        long tokenExpiry = data.timestamp("refreshTokenExpiresAt");
        long signedInAt = signedInAtMillis < 0 ? answer.serverTimeMillis : signedInAtMillis;
        return new StoredSession(token, tokenExpiry, credentials, storage, user, provider, signedInAt,
                answer.serverTimeMillis, answer.serverTimeMillis - deviceNowMillis, rotation, NOT_UNANSWERED);
    }

    StoredSession withUser(User next) {
        return new StoredSession(refreshToken, refreshTokenExpiresAtMillis, credentials, storage, next, signInProvider,
                signedInAtMillis, receivedAtMillis, serverOffsetMillis, rotation, unansweredSinceMillis);
    }

    /** This session with its token marked unanswered since {@code deviceWallMillis}. */
    StoredSession withUnansweredSince(long deviceWallMillis) {
        return new StoredSession(refreshToken, refreshTokenExpiresAtMillis, credentials, storage, user, signInProvider,
                signedInAtMillis, receivedAtMillis, serverOffsetMillis, rotation, deviceWallMillis);
    }

    boolean isUnanswered() {
        return unansweredSinceMillis != NOT_UNANSWERED;
    }

    /** Now by the server's clock, as this device estimates it. */
    long serverNow(long deviceNowMillis) {
        return deviceNowMillis + serverOffsetMillis;
    }

    byte[] encode() {
        try {
            JSONObject o = new JSONObject().put("format", FORMAT).put("refreshToken", refreshToken)
                    .put("refreshTokenExpiresAt", Timestamps.format(refreshTokenExpiresAtMillis))
                    .put("credentials", credentials.toJson()).put("storage", storage.toJson())
                    .put("user", user.toJson()).put("signInProvider", signInProvider.wireName())
                    .put("signedInAt", Timestamps.format(signedInAtMillis))
                    .put("receivedAt", Timestamps.format(receivedAtMillis)).put("serverOffsetMillis", serverOffsetMillis)
                    .put("rotation", rotation);
            if (isUnanswered()) {
                o.put("unansweredSince", Timestamps.format(unansweredSinceMillis));
            }
            return o.toString().getBytes(StandardCharsets.UTF_8);
        } catch (JSONException e) {
            throw new IllegalStateException("a session encodes", e);
        }
    }

    static StoredSession decode(byte[] bytes) throws SessionStoreException {
        try {
            JSONObject o = WireReader.parseObject(new String(bytes, StandardCharsets.UTF_8), "store");
            WireReader r = new WireReader(o, "", "store");
            Long format = r.optionalInteger("format");
            if (format == null) {
                throw new SessionStoreException("the stored session has no format");
            }
            if (format > FORMAT) {
                throw new SessionStoreException("the stored session's format " + format + " is newer than this client");
            }
            Provider provider = Provider.fromWire(r.string("signInProvider"));
            if (provider == null) {
                throw new SessionStoreException("the stored session names an unknown provider");
            }
            return new StoredSession(r.string("refreshToken"), r.timestamp("refreshTokenExpiresAt"),
                    TemporaryCredentials.read(r.object("credentials")), StorageLocation.read(r.object("storage")),
                    User.read(r.object("user")), provider, r.timestamp("signedInAt"), r.timestamp("receivedAt"),
                    r.integer("serverOffsetMillis"), r.integer("rotation"), r.optionalTimestamp("unansweredSince"));
        } catch (SignInException e) {
            throw new SessionStoreException("the stored session is unreadable: " + e.getMessage());
        }
    }
}

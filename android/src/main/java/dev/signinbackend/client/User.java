package dev.signinbackend.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.json.JSONException;
import org.json.JSONObject;

/** The account as the functions answer it. Times are epoch milliseconds, -1 when absent. */
public final class User {
    public final String serviceUserID;
    public final String displayName;
    public final String email;
    public final long createdAtMillis;
    public final long lastUpdatedMillis;
    public final String primaryProvider;
    public final List<LinkedProvider> providers;
    /** Null when the answer carries none. */
    public final Subscription subscription;
    private final String json;

    private User(WireReader r, List<LinkedProvider> providers, Subscription subscription) throws SignInException {
        this.serviceUserID = r.string("serviceUserID");
        this.displayName = r.optionalString("displayName");
        this.email = r.optionalString("email");
        this.createdAtMillis = r.optionalTimestamp("createdAt");
        this.lastUpdatedMillis = r.optionalTimestamp("lastUpdated");
        this.primaryProvider = r.optionalString("primaryProvider");
        this.providers = providers;
        this.subscription = subscription;
        this.json = r.raw().toString();
    }

    static User read(WireReader r) throws SignInException {
        List<LinkedProvider> providers = new ArrayList<>();
        for (WireReader p : r.objects("providers")) {
            providers.add(LinkedProvider.read(p));
        }
        WireReader subscription = r.optionalObject("subscription");
        return new User(r, Collections.unmodifiableList(providers),
                subscription == null ? null : Subscription.read(subscription));
    }

    /** Whether a provider of this type ({@code apple}, {@code google}) is linked. */
    public boolean hasProvider(Provider provider) {
        for (LinkedProvider p : providers) {
            if (p.type.equals(provider.wireName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The Apple user identifier ({@code sub}) the account's Apple link has now, null without one.
     * It changes when the app moves to another Apple developer team and the server re-keys the
     * link (a Sign in with Apple carrying {@code transfer_sub}, or the operator's {@code apple-transfer
     * complete}); the session's user follows it at the next answer. Key nothing of your own on it:
     * {@link #serviceUserID} never changes.
     */
    public String appleUserId() {
        for (LinkedProvider p : providers) {
            if (p.type.equals(Provider.APPLE.wireName())) {
                return p.id;
            }
        }
        return null;
    }

    /** The user object exactly as the server sent it (fields this client does not know included). */
    public JSONObject toJson() {
        try {
            return new JSONObject(json);
        } catch (JSONException e) {
            throw new IllegalStateException("a user read from JSON is JSON", e);
        }
    }

    @Override
    public String toString() {
        return "User(" + serviceUserID + ")";
    }
}

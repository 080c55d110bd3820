package dev.signinbackend.client;

/** One provider identity linked to the account. Times are epoch milliseconds, -1 when absent. */
public final class LinkedProvider {
    public final String type;
    public final String id;
    public final String email;
    public final boolean isPrimary;
    public final long linkedAtMillis;
    public final long lastUsedMillis;

    LinkedProvider(String type, String id, String email, boolean isPrimary, long linkedAtMillis, long lastUsedMillis) {
        this.type = type;
        this.id = id;
        this.email = email;
        this.isPrimary = isPrimary;
        this.linkedAtMillis = linkedAtMillis;
        this.lastUsedMillis = lastUsedMillis;
    }

    static LinkedProvider read(WireReader r) throws SignInException {
        return new LinkedProvider(r.string("type"), r.string("id"), r.optionalString("email"), r.bool("isPrimary"),
                r.optionalTimestamp("linkedAt"), r.optionalTimestamp("lastUsed"));
    }
}

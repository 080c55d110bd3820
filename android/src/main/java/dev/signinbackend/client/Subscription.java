package dev.signinbackend.client;

/**
 * The account's plan ({@code profile.json} {@code subscription}); purchase fields appear once one
 * is claimed. Times are epoch milliseconds (-1 when absent), sizes bytes (-1 when absent).
 */
public final class Subscription {
    public final String tier;
    /** {@code active}, {@code grace}, {@code expired}, {@code revoked}; null for the free plan. */
    public final String status;
    public final String productID;
    public final String originalTransactionId;
    public final String environment;
    public final long startDateMillis;
    public final long expiryDateMillis;
    public final long storageLimit;
    public final long storageUsed;

    Subscription(String tier, String status, String productID, String originalTransactionId, String environment,
            long startDateMillis, long expiryDateMillis, long storageLimit, long storageUsed) {
        this.tier = tier;
        this.status = status;
        this.productID = productID;
        this.originalTransactionId = originalTransactionId;
        this.environment = environment;
        this.startDateMillis = startDateMillis;
        this.expiryDateMillis = expiryDateMillis;
        this.storageLimit = storageLimit;
        this.storageUsed = storageUsed;
    }

    static Subscription read(WireReader r) throws SignInException {
        Long limit = r.optionalInteger("storageLimit");
        Long used = r.optionalInteger("storageUsed");
        return new Subscription(r.string("tier"), r.optionalString("status"), r.optionalString("productID"),
                r.optionalString("originalTransactionId"), r.optionalString("environment"),
                r.optionalTimestamp("startDate"), r.optionalTimestamp("expiryDate"), limit == null ? -1 : limit,
                used == null ? -1 : used);
    }
}

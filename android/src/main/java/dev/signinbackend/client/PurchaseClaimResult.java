package dev.signinbackend.client;

/** auth-link {@code claimPurchase}: {@code claimed} or {@code already_claimed}. */
public final class PurchaseClaimResult {
    public final String status;
    public final Subscription subscription;
    public final User user;

    PurchaseClaimResult(WireReader data) throws SignInException {
        status = data.string("status");
        subscription = Subscription.read(data.object("subscription"));
        user = User.read(data.object("user"));
    }
}

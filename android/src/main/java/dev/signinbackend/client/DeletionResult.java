package dev.signinbackend.client;

/**
 * auth-link {@code delete}. {@code purge} is {@code complete} or {@code pending} (the scheduled
 * run finishes it); {@code appleTokensRevoked} is null when the account had no Apple identity or
 * revocation is off.
 */
public final class DeletionResult {
    public final boolean deleted;
    public final String serviceUserID;
    public final String purge;
    public final Boolean appleTokensRevoked;

    DeletionResult(WireReader data) throws SignInException {
        deleted = data.bool("deleted");
        serviceUserID = data.string("serviceUserID");
        purge = data.string("purge");
        appleTokensRevoked = data.optionalBool("appleTokensRevoked");
    }
}

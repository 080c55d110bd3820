package dev.signinbackend.client;

/** What Apple's web flow brought back, its {@code state} already checked. */
public final class AppleWebReturn {
    /** Apple's ID token: sign in with it and the request's raw nonce. */
    public final String idToken;
    /** Apple's authorization code (for {@code deleteAccount}, which revokes Apple's tokens). */
    public final String authorizationCode;
    /** The name Apple sent (first sign-in only), or null. Pass it as {@code fullName}. */
    public final String fullName;
    /** The email Apple sent (first sign-in only), or null. */
    public final String email;

    AppleWebReturn(String idToken, String authorizationCode, String fullName, String email) {
        this.idToken = idToken;
        this.authorizationCode = authorizationCode;
        this.fullName = fullName;
        this.email = email;
    }
}

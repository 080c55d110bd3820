package dev.signinbackend.client;

/** A sign-in's outcome (the refresh token and credentials stay inside the session). */
public final class SignInResult {
    public final boolean isNewUser;
    public final User user;
    public final StorageLocation storage;

    SignInResult(boolean isNewUser, User user, StorageLocation storage) {
        this.isNewUser = isNewUser;
        this.user = user;
        this.storage = storage;
    }
}

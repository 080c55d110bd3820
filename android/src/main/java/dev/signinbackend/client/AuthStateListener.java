package dev.signinbackend.client;

/** Hears the auth state; called on the session's callback executor, one state at a time, in order. */
public interface AuthStateListener {
    void onAuthState(AuthState state);
}

package dev.signinbackend.client;

/** Returned by {@link SignInSession#addAuthStateListener}; {@link #remove()} stops the calls. */
public interface ListenerRegistration extends AutoCloseable {
    void remove();

    @Override
    default void close() {
        remove();
    }
}

package dev.signinbackend.client;

/** A hold taken by {@link SessionStore#lock()}; closing it releases it. */
public interface StoreLock extends AutoCloseable {
    /** Holds nothing. */
    StoreLock NONE = () -> { };

    @Override
    void close();
}

package dev.signinbackend.client;

/**
 * Who may refresh. A second process sharing the store (a {@code :sync} process, a widget host in
 * its own process) may be {@link #READ_ONLY}: it never rotates the token, always presents the
 * token the store holds now, and never clears the store because of an answer to a token the store
 * no longer holds. Processes that refresh coordinate through {@link SessionStore#lock()}.
 */
public enum RefreshPolicy {
    REFRESHES,
    READ_ONLY
}

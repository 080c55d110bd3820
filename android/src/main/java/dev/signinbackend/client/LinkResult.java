package dev.signinbackend.client;

/** auth-link {@code link} / {@code unlink}: {@code linked}, {@code already_linked} or {@code unlinked}, and the user after it. */
public final class LinkResult {
    public final String status;
    public final User user;

    LinkResult(WireReader data) throws SignInException {
        status = data.string("status");
        user = User.read(data.object("user"));
    }
}

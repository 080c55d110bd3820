package dev.signinbackend.client;

/** The three functions. */
public enum SignInFunction {
    SIGN_IN("auth-signin"),
    REFRESH("auth-refresh"),
    LINK("auth-link");

    private final String defaultName;

    SignInFunction(String defaultName) {
        this.defaultName = defaultName;
    }

    /** The function's name in the template ({@code auth-signin}, …); a stack may name them otherwise. */
    public String defaultName() {
        return defaultName;
    }
}

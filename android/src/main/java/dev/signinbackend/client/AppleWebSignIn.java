package dev.signinbackend.client;

import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.util.HashMap;
import java.util.Map;

/**
 * Sign in with Apple on Android, through Apple's web flow and the deployment's return URL
 * (contract v4, "Sign in with Apple on Android and the web"; docs/android.md has the Apple
 * Developer settings and the App Link).
 *
 * <pre>{@code
 * AppleAuthorizationRequest request = AppleWebSignIn.authorizationRequest(SERVICES_ID, SIGNIN_URL + "/apple/callback");
 * // keep request.toJson(); open request.authorizationUrl in a Custom Tab
 * // ... the App Link arrives in onNewIntent(intent):
 * AppleWebReturn apple = AppleWebSignIn.readReturn(request, intent.getDataString());
 * session.signInWithApple(request, apple);  // presents the request's nonce and Apple's name
 * }</pre>
 */
public final class AppleWebSignIn {
    /** Apple's {@code error} when the user cancelled. */
    public static final String USER_CANCELLED = "user_cancelled_authorize";

    private AppleWebSignIn() {}

    /** A new attempt: fresh random {@code state} and nonce, name and email asked for. */
    public static AppleAuthorizationRequest authorizationRequest(String servicesId, String returnUrl) {
        return authorizationRequest(servicesId, returnUrl, true);
    }

    public static AppleAuthorizationRequest authorizationRequest(String servicesId, String returnUrl,
            boolean askForNameAndEmail) {
        if (!isAcceptableReturnUrl(returnUrl)) {
            throw new IllegalArgumentException("Apple's return URL must be https (http only to 127.0.0.1 exactly)");
        }
        return new AppleAuthorizationRequest(servicesId, returnUrl, Bytes.base64Url(Bytes.random(24)),
                Bytes.base64Url(Bytes.random(32)), askForNameAndEmail);
    }

    /**
     * https with a host, or (tests against scripts/serve) http to the loopback host 127.0.0.1
     * exactly, with a port or a path only: parsed, never a prefix ({@code http://127.0.0.1.evil.com}
     * starts like the loopback address).
     */
    static boolean isAcceptableReturnUrl(String returnUrl) {
        if (returnUrl == null) {
            return false;
        }
        URI uri;
        try {
            uri = new URI(returnUrl);
        } catch (URISyntaxException e) {
            return false;
        }
        if (uri.isOpaque() || uri.getRawUserInfo() != null || uri.getHost() == null) {
            return false;
        }
        if ("https".equals(uri.getScheme())) {
            return true;
        }
        return "http".equals(uri.getScheme()) && "127.0.0.1".equals(uri.getHost()) && uri.getRawQuery() == null
                && uri.getRawFragment() == null;
    }

    /**
     * Reads the app target the return URL redirected to (the App Link with the fields in its
     * fragment, or the data URI of an intent URL with them in its query) and checks its
     * {@code state} against {@code request}'s.
     *
     * <p>Idempotent: reading the same return again (Android redelivers the App Link's intent when
     * the activity is re-created, e.g. after a rotation) gives the same result; with no request
     * (already consumed and forgotten, or never kept) it is a {@link SignInException}
     * ({@code fieldPath()} {@code request}), never a crash.
     *
     * @throws SignInException {@link FailureKind#MALFORMED_ANSWER} naming the field when the state
     *     does not match (a forged or stale return: ignore it), when Apple reported an error
     *     ({@code fieldPath()} {@code error}; {@link #USER_CANCELLED} when the user cancelled), or
     *     when the ID token is missing.
     */
    public static AppleWebReturn readReturn(AppleAuthorizationRequest request, String returnUri)
            throws SignInException {
        if (request == null) {
            throw SignInException.malformed("appleReturn", "request",
                    "no Apple sign-in is in progress (already consumed, or its request was not kept)");
        }
        if (returnUri == null) {
            throw SignInException.malformed("appleReturn", "", "missing");
        }
        Map<String, String> fields = fields(returnUri);
        if (!Bytes.constantTimeEquals(fields.get("state"), request.state)) {
            throw SignInException.malformed("appleReturn", "state", "does not match this sign-in's");
        }
        String error = fields.get("error");
        if (error != null) {
            throw SignInException.malformed("appleReturn", "error", error.matches("[a-z_]{1,64}") ? error : "from Apple");
        }
        String idToken = fields.get("id_token");
        if (idToken == null || idToken.isEmpty()) {
            throw SignInException.malformed("appleReturn", "id_token", "missing");
        }
        String fullName = null;
        String email = null;
        String user = fields.get("user");
        if (user != null) {
            WireReader u = new WireReader(WireReader.parseObject(user, "appleReturn"), "user", "appleReturn");
            email = u.optionalString("email");
            WireReader name = u.optionalObject("name");
            if (name != null) {
                String first = name.optionalString("firstName");
                String last = name.optionalString("lastName");
                String joined = ((first == null ? "" : first) + " " + (last == null ? "" : last)).trim();
                fullName = joined.isEmpty() ? null : joined;
            }
        }
        return new AppleWebReturn(idToken, fields.get("code"), fullName, email);
    }

    /** The form fields of the fragment (or, with no fragment, of the query). */
    static Map<String, String> fields(String uri) throws SignInException {
        int hash = uri.indexOf('#');
        String encoded;
        if (hash >= 0) {
            encoded = uri.substring(hash + 1);
        } else {
            int question = uri.indexOf('?');
            encoded = question >= 0 ? uri.substring(question + 1) : "";
        }
        Map<String, String> out = new HashMap<>();
        for (String pair : encoded.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (out.put(name, value) != null) {
                throw SignInException.malformed("appleReturn", name, "appears twice");
            }
        }
        return out;
    }

    private static String decode(String text) throws SignInException {
        try {
            return URLDecoder.decode(text, "UTF-8");
        } catch (UnsupportedEncodingException | IllegalArgumentException e) {
            throw SignInException.malformed("appleReturn", "", "is not form-encoded");
        }
    }
}

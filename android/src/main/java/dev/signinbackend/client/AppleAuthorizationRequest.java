package dev.signinbackend.client;

import java.io.UnsupportedEncodingException;
import java.net.URLEncoder;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * One Sign in with Apple attempt through Apple's web flow (Android has no native Sign in with
 * Apple): open {@link #authorizationUrl} in a Custom Tab; Apple posts the result to the
 * deployment's return URL (auth-signin's Function URL, {@code POST /apple/callback}), which
 * redirects to the app's App Link with the fields in the fragment; then
 * {@link AppleWebSignIn#readReturn(AppleAuthorizationRequest, String)} checks {@link #state} and
 * hands back the ID token to sign in with, together with {@link #rawNonce}.
 *
 * <p>Keep the request until the return arrives (the app may be killed while the browser is in
 * front): {@link #toJson()} and {@link #fromJson(String)}. It holds no secret but it is single-use.
 */
public final class AppleAuthorizationRequest {
    /** Apple's authorization endpoint. */
    public static final String APPLE_AUTHORIZE = "https://appleid.apple.com/auth/authorize";

    /** The Services ID (one of the deployment's {@code APPLE_AUDIENCES}). */
    public final String servicesId;
    /** The deployment's return URL: auth-signin's Function URL + {@code /apple/callback}. */
    public final String returnUrl;
    /** Random, checked on return (a return that does not carry it is refused). */
    public final String state;
    /** Random; Apple gets its SHA-256 hex, auth-signin gets this raw value ({@code nonce}). */
    public final String rawNonce;
    /** Whether Apple is asked for the name and email (Apple sends them on the first sign-in only). */
    public final boolean askForNameAndEmail;
    /** Open this in a Custom Tab. */
    public final String authorizationUrl;

    AppleAuthorizationRequest(String servicesId, String returnUrl, String state, String rawNonce,
            boolean askForNameAndEmail) {
        this.servicesId = servicesId;
        this.returnUrl = returnUrl;
        this.state = state;
        this.rawNonce = rawNonce;
        this.askForNameAndEmail = askForNameAndEmail;
        StringBuilder url = new StringBuilder(APPLE_AUTHORIZE).append("?client_id=").append(encode(servicesId))
                .append("&redirect_uri=").append(encode(returnUrl))
                .append("&response_type=").append(encode("code id_token"))
                // Apple requires form_post when it is asked for the name or email; the return URL
                // only accepts form_post.
                .append("&response_mode=form_post");
        if (askForNameAndEmail) {
            url.append("&scope=").append(encode("name email"));
        }
        url.append("&state=").append(encode(state)).append("&nonce=").append(encode(Bytes.sha256Hex(rawNonce)));
        this.authorizationUrl = url.toString();
    }

    static String encode(String value) {
        try {
            return URLEncoder.encode(value, "UTF-8").replace("+", "%20");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
    }

    /** To keep across process death (e.g. in {@code onSaveInstanceState}). */
    public String toJson() {
        try {
            return new JSONObject().put("servicesId", servicesId).put("returnUrl", returnUrl).put("state", state)
                    .put("rawNonce", rawNonce).put("askForNameAndEmail", askForNameAndEmail).toString();
        } catch (JSONException e) {
            throw new IllegalStateException("strings encode", e);
        }
    }

    /** The request {@link #toJson()} wrote. */
    public static AppleAuthorizationRequest fromJson(String json) throws SignInException {
        WireReader r = new WireReader(WireReader.parseObject(json, "appleRequest"), "", "appleRequest");
        if (r.string("rawNonce").length() < 32) {
            throw SignInException.malformed("appleRequest", "rawNonce", "too short: not a request this library made");
        }
        return new AppleAuthorizationRequest(r.string("servicesId"), r.string("returnUrl"), r.string("state"),
                r.string("rawNonce"), r.bool("askForNameAndEmail"));
    }
}

package dev.signinbackend.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Apple's web flow on Android: the authorization URL, and reading the return the deployment redirects to. */
class AppleWebSignInTest {
    private static final String RETURN = "https://abc.lambda-url.us-east-1.on.aws/apple/callback";

    private static Map<String, String> query(String url) {
        Map<String, String> out = new HashMap<>();
        for (String pair : URI.create(url).getRawQuery().split("&")) {
            String[] kv = pair.split("=", 2);
            out.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void theAuthorizationUrlIsApplesWithTheNoncesHash() throws Exception {
        AppleAuthorizationRequest request = AppleWebSignIn.authorizationRequest("com.example.photos.web", RETURN);
        assertTrue(request.authorizationUrl.startsWith("https://appleid.apple.com/auth/authorize?"));
        Map<String, String> q = query(request.authorizationUrl);
        assertEquals("com.example.photos.web", q.get("client_id"));
        assertEquals(RETURN, q.get("redirect_uri"));
        assertEquals("code id_token", q.get("response_type"));
        assertEquals("form_post", q.get("response_mode"));
        assertEquals("name email", q.get("scope"));
        assertEquals(request.state, q.get("state"));
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(request.rawNonce.getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : hash) {
            hex.append(String.format("%02x", b));
        }
        assertEquals(hex.toString(), q.get("nonce"));
        assertNotEquals(request.state, AppleWebSignIn.authorizationRequest("x", RETURN).state);
        assertTrue(request.rawNonce.length() >= 40 && request.state.length() >= 30);
    }

    @Test
    void theRequestSurvivesProcessDeath() throws Exception {
        AppleAuthorizationRequest request = AppleWebSignIn.authorizationRequest("svc", RETURN);
        AppleAuthorizationRequest back = AppleAuthorizationRequest.fromJson(request.toJson());
        assertEquals(request.authorizationUrl, back.authorizationUrl);
        assertEquals(request.rawNonce, back.rawNonce);
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Test
    void readsTheFragmentOfTheAppLink() throws Exception {
        AppleAuthorizationRequest request = AppleWebSignIn.authorizationRequest("svc", RETURN);
        String user = "{\"name\":{\"firstName\":\"Ada\",\"lastName\":\"Lovelace\"},\"email\":\"ada@privaterelay.appleid.com\"}";
        String link = "https://photos.example.com/apple-return#code=c.0.abc&id_token=eyJ.a.b&state=" + enc(request.state)
                + "&user=" + enc(user);
        AppleWebReturn back = AppleWebSignIn.readReturn(request, link);
        assertEquals("eyJ.a.b", back.idToken);
        assertEquals("c.0.abc", back.authorizationCode);
        assertEquals("Ada Lovelace", back.fullName);
        assertEquals("ada@privaterelay.appleid.com", back.email);
        // an intent URL's data URI carries them in its query
        back = AppleWebSignIn.readReturn(request, "photos://apple-return?id_token=t&state=" + enc(request.state));
        assertEquals("t", back.idToken);
        assertNull(back.fullName);
    }

    @Test
    void refusesAForeignStateAnErrorAndAMissingToken() {
        AppleAuthorizationRequest request = AppleWebSignIn.authorizationRequest("svc", RETURN);
        SignInException e = assertThrows(SignInException.class,
                () -> AppleWebSignIn.readReturn(request, "https://x/r#id_token=t&state=someone-elses"));
        assertEquals("state", e.fieldPath());
        e = assertThrows(SignInException.class, () -> AppleWebSignIn.readReturn(request,
                "https://x/r#error=user_cancelled_authorize&state=" + enc(request.state)));
        assertEquals("error", e.fieldPath());
        assertTrue(e.getMessage().endsWith(AppleWebSignIn.USER_CANCELLED));
        e = assertThrows(SignInException.class,
                () -> AppleWebSignIn.readReturn(request, "https://x/r#code=c&state=" + enc(request.state)));
        assertEquals("id_token", e.fieldPath());
        e = assertThrows(SignInException.class, () -> AppleWebSignIn.readReturn(request,
                "https://x/r#id_token=a&id_token=b&state=" + enc(request.state)));
        assertEquals("id_token", e.fieldPath());
    }

    @Test
    void readingTheSameReturnTwiceGivesTheSameAndAForgottenRequestIsAnErrorNotACrash() throws Exception {
        AppleAuthorizationRequest request = AppleWebSignIn.authorizationRequest("svc", RETURN);
        String link = "https://photos.example.com/apple-return#id_token=eyJ.a.b&state=" + enc(request.state);
        AppleWebReturn first = AppleWebSignIn.readReturn(request, link);
        AppleWebReturn again = AppleWebSignIn.readReturn(AppleAuthorizationRequest.fromJson(request.toJson()), link);
        assertEquals(first.idToken, again.idToken);  // the intent redelivered after a rotation
        // The request was consumed (and forgotten) by the first activity: an error to ignore, not an NPE.
        SignInException e = assertThrows(SignInException.class, () -> AppleWebSignIn.readReturn(null, link));
        assertEquals("request", e.fieldPath());
        assertEquals(FailureKind.MALFORMED_ANSWER, e.kind());
        assertThrows(SignInException.class, () -> AppleWebSignIn.readReturn(request, null));
    }

    @Test
    void theReturnUrlIsParsedNotPrefixMatched() {
        AppleWebSignIn.authorizationRequest("svc", "http://127.0.0.1:8123/apple/callback");
        for (String bad : new String[] {"http://127.0.0.1.evil.com/apple/callback", "http://127.0.0.1@evil.com/cb",
                "http://127.0.0.1:8123/cb?target=x", "http://localhost.evil.com/cb", "https:opaque", "ftp://127.0.0.1/cb"}) {
            assertThrows(IllegalArgumentException.class, () -> AppleWebSignIn.authorizationRequest("svc", bad), bad);
        }
    }

    @Test
    void signInWithAppleAlwaysPresentsTheRequestsNonce() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.session();
            AppleAuthorizationRequest request = AppleAuthorizationRequest.fromJson(
                    AppleWebSignIn.authorizationRequest("svc", RETURN).toJson());  // kept across the redirect
            assertEquals(Bytes.sha256Hex(request.rawNonce), query(request.authorizationUrl).get("nonce"));
            AppleWebReturn back = AppleWebSignIn.readReturn(request,
                    "https://photos.example.com/apple-return#id_token=eyJ.a.b&state=" + enc(request.state));
            Harness.await(session.signInWithApple(request, back));
            org.json.JSONObject sent = h.transport.calls("signin").get(0).body;
            assertEquals(request.rawNonce, sent.getString("nonce"));
            assertEquals("eyJ.a.b", sent.getString("idToken"));
        }
    }

    @Test
    void aKeptRequestWithoutARealNonceIsRefused() {
        assertThrows(SignInException.class, () -> AppleAuthorizationRequest.fromJson("{\"servicesId\":\"svc\","
                + "\"returnUrl\":\"" + RETURN + "\",\"state\":\"s\",\"rawNonce\":\"\",\"askForNameAndEmail\":true}"));
    }
}

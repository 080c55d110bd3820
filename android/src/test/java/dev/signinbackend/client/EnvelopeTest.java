package dev.signinbackend.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/** How answers are read: envelopes, errors, what is not an envelope, and the field paths of decoding errors. */
class EnvelopeTest {
    private static SignInException open(TransportAnswer answer) {
        return assertThrows(SignInException.class, () -> Envelope.open(answer, "refresh"));
    }

    @Test
    void anErrorEnvelopeCarriesItsCodeAndStatus() {
        SignInException e = open(Answers.error("SESSION_INVALID", 401));
        assertEquals(FailureKind.SERVER, e.kind());
        assertEquals(ErrorCode.SESSION_INVALID, e.code());
        assertEquals(401, e.httpStatus());
        assertEquals(Recommendation.SIGN_IN_AGAIN, e.recommendation());
    }

    @Test
    void throttlingWithoutAnEnvelopeIsUnavailableNotMalformed() {
        // Lambda's Function URL front door answers 429 with its own body when the function is throttled.
        for (String body : new String[] {"{\"Message\":\"Too Many Requests\"}", "Rate Exceeded.", ""}) {
            SignInException e = open(Answers.raw(429, body));
            assertEquals(FailureKind.UNAVAILABLE, e.kind(), body);
            assertEquals(429, e.httpStatus());
            assertEquals(Recommendation.RETRY_LATER, e.recommendation());
        }
    }

    @Test
    void gatewayPagesAreUnavailable() {
        for (int status : new int[] {500, 502, 503, 504}) {
            assertEquals(FailureKind.UNAVAILABLE, open(Answers.raw(status, "<html>Bad Gateway</html>")).kind());
        }
    }

    @Test
    void aDirectInvokesFunctionErrorIsUnavailable() {
        SignInException e = open(Answers.raw(-1, "{\"errorType\":\"Runtime.ExitError\",\"errorMessage\":\"x\"}"));
        assertEquals(FailureKind.UNAVAILABLE, e.kind());
    }

    @Test
    void otherBodiesAreMalformedAndSayWhere() {
        assertEquals("body", open(Answers.raw(200, "{\"success\": tru")).fieldPath());
        assertEquals("body", open(Answers.raw(403, "<html>Forbidden</html>")).fieldPath());
        assertEquals("success", open(Answers.raw(200, "{}")).fieldPath());
        assertEquals("data", open(Answers.raw(200, "{\"success\":true,\"meta\":{}}")).fieldPath());
        assertEquals("meta.timestamp",
                open(Answers.raw(200, "{\"success\":true,\"data\":{},\"meta\":{\"requestId\":\"r\"}}")).fieldPath());
        assertEquals("error.code", open(Answers.raw(400, "{\"success\":false,\"error\":{\"message\":\"m\"}}")).fieldPath());
    }

    @Test
    void decodingErrorsNameTheFieldPath() throws Exception {
        JSONObject data = new JSONObject(new String(Answers.session("rt", "AKIA1", 0, 0).body, StandardCharsets.UTF_8))
                .getJSONObject("data");
        data.getJSONObject("credentials").put("expiration", "tomorrow");
        WireReader r = new WireReader(data, "data", "refresh");
        SignInException e = assertThrows(SignInException.class, () -> TemporaryCredentials.read(r.object("credentials")));
        assertEquals("data.credentials.expiration", e.fieldPath());
        assertEquals(FailureKind.MALFORMED_ANSWER, e.kind());

        data.getJSONObject("user").getJSONArray("providers").getJSONObject(0).put("isPrimary", "yes");
        e = assertThrows(SignInException.class, () -> User.read(r.object("user")));
        assertEquals("data.user.providers[0].isPrimary", e.fieldPath());
        assertEquals("malformed answer to refresh: data.user.providers[0].isPrimary is not a boolean", e.getMessage());
    }

    @Test
    void credentialsNeverPrintTheirSecrets() {
        TemporaryCredentials c = new TemporaryCredentials("ASIAEXAMPLE", "the-secret", "the-session-token", 0);
        assertEquals(false, c.toString().contains("the-secret") || c.toString().contains("the-session-token"));
    }
}

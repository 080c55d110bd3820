package dev.signinbackend.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every code of the contract, and what each means for the UI (docs/android.md's table). */
class ErrorCodeTest {
    @Test
    void theCodesAreTheContractsInItsOrder() throws Exception {
        // The contract (../shared/CONTRACT.md beside the repository) lists the codes in a table:
        // `| `CODE` | HTTP |`. The client knows every code of v4, IDENTITY_SUSPENDED included.
        File api = new File(System.getProperty("signin.repo", ".."), "../shared/CONTRACT.md");
        String text = new String(Files.readAllBytes(api.toPath()), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?m)^\\| `([A-Z_]+)` \\| ([45]\\d\\d) \\|").matcher(text);
        List<String> documented = new ArrayList<>();
        while (m.find()) {
            documented.add(m.group(1));
        }
        List<String> ours = new ArrayList<>();
        for (ErrorCode c : ErrorCode.ALL) {
            ours.add(c.value());
        }
        assertEquals(documented, ours);
    }

    @Test
    void eachCodeSaysWhatTheUiDoes() {
        Object[][] table = {
            {"INVALID_REQUEST", Recommendation.FIX_THE_CALL, null},
            {"UNSUPPORTED_PROVIDER", Recommendation.FIX_THE_CALL, null},
            {"INVALID_TOKEN", Recommendation.SIGN_IN_AGAIN, null},
            {"TOKEN_EXPIRED", Recommendation.SIGN_IN_AGAIN, null},
            {"ACCOUNT_NOT_FOUND", Recommendation.TELL_USER, UserNotice.NO_ACCOUNT_FOR_THIS_SIGN_IN},
            {"ACCOUNT_ALREADY_EXISTS", Recommendation.TELL_USER, UserNotice.ACCOUNT_ALREADY_EXISTS},
            {"PROVIDER_ALREADY_LINKED", Recommendation.TELL_USER, UserNotice.PROVIDER_BELONGS_TO_ANOTHER_ACCOUNT},
            {"PROVIDER_NOT_LINKED", Recommendation.TELL_USER, UserNotice.PROVIDER_NOT_LINKED},
            {"LAST_PROVIDER", Recommendation.TELL_USER, UserNotice.LAST_PROVIDER},
            {"SESSION_INVALID", Recommendation.SIGN_IN_AGAIN, null},
            {"REAUTHENTICATION_REQUIRED", Recommendation.REAUTHENTICATE_THEN_RETRY, null},
            {"CONFLICT", Recommendation.RETRY_LATER, null},
            {"PURCHASE_BELONGS_TO_OTHER_ACCOUNT", Recommendation.TELL_USER, UserNotice.PURCHASE_BELONGS_TO_OTHER_ACCOUNT},
            {"INVALID_PURCHASE", Recommendation.TELL_USER, UserNotice.PURCHASE_NOT_VALID},
            {"ACCOUNT_DISABLED", Recommendation.TELL_USER, UserNotice.ACCOUNT_DISABLED},
            {"IDENTITY_SUSPENDED", Recommendation.TELL_USER, UserNotice.IDENTITY_SUSPENDED},
            {"UPSTREAM_UNAVAILABLE", Recommendation.RETRY_LATER, null},
        };
        assertEquals(ErrorCode.ALL.size(), table.length);
        for (Object[] row : table) {
            ErrorCode code = ErrorCode.of((String) row[0]);
            assertEquals(row[1], code.recommendation(), code.value());
            assertEquals(row[2], code.notice(), code.value());
            SignInException e = SignInException.server("x", code, "m", 400);
            assertEquals(row[1], e.recommendation());
        }
    }

    @Test
    void aCodeNewerThanTheClientIsKeptAndMeansRetryLater() {
        ErrorCode future = ErrorCode.of("SOMETHING_NEW");
        assertFalse(future.isKnown());
        assertEquals("SOMETHING_NEW", future.value());
        assertEquals(Recommendation.RETRY_LATER, future.recommendation());
        assertNull(future.notice());
        assertFalse(future.endsSession());
    }

    @Test
    void onlyThreeCodesEndTheSession() {
        List<String> ending = new ArrayList<>();
        for (ErrorCode c : ErrorCode.ALL) {
            if (c.endsSession()) {
                ending.add(c.value());
            }
        }
        assertEquals(List.of("ACCOUNT_NOT_FOUND", "SESSION_INVALID", "ACCOUNT_DISABLED"), ending);
    }

    @Test
    void whichFailuresMayHaveRotated() {
        assertTrue(SignInException.of(FailureKind.TIMED_OUT, "refresh", "t").mayHaveRotated());
        assertTrue(SignInException.of(FailureKind.CONNECTION_LOST, "refresh", "t").mayHaveRotated());
        assertTrue(SignInException.malformed("refresh", "data", "missing").mayHaveRotated());
        assertTrue(SignInException.unavailable("refresh", 502, "no envelope").mayHaveRotated());
        assertTrue(SignInException.unavailable("refresh", 504, "no envelope").mayHaveRotated());
        assertTrue(SignInException.unavailable("refresh", -1, "the function reported an error").mayHaveRotated());
        assertFalse(SignInException.unavailable("refresh", 429, "no envelope").mayHaveRotated());
        assertFalse(SignInException.unavailable("refresh", 503, "no envelope").mayHaveRotated());
        assertFalse(SignInException.of(FailureKind.OFFLINE, "refresh", "t").mayHaveRotated());
        assertFalse(SignInException.server("refresh", ErrorCode.UPSTREAM_UNAVAILABLE, "m", 503).mayHaveRotated());
    }
}

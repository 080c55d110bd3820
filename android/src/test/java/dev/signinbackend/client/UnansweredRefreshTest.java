package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static dev.signinbackend.client.Harness.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract's "a lost or unreadable answer is retried with the same token while the grace
 * lasts, and never after it": a refresh whose answer was not read marks its token
 * ({@code unansweredSince}, stored); inside the window the token is presented again, past it
 * never (the session ends here, unpresented), whichever process or launch asks.
 */
class UnansweredRefreshTest {
    /** Every refresh reaches the server (which rotates) and its answer is lost after the whole timeout. */
    private static void loseEveryRefreshAnswer(Harness h) {
        h.transport.handler = call -> {
            TransportAnswer answer = h.server.answer(call);
            if (call.action.equals("refresh")) {
                h.clock.advance(call.timeoutMillis);
                throw SignInException.of(FailureKind.TIMED_OUT, "refresh", "test");
            }
            return answer;
        };
    }

    private static List<String> presented(Harness h) {
        List<String> out = new ArrayList<>();
        for (ScriptedTransport.Call c : h.transport.calls) {
            if (c.token() != null) {
                out.add(c.action + " " + c.token());
            }
        }
        return out;
    }

    @Test
    void aTokenWhoseAnswerWasLostIsNeverPresentedAfterTheWindow() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            loseEveryRefreshAnswer(h);
            assertEquals(FailureKind.TIMED_OUT, failure(session.refresh()).kind());
            assertEquals(List.of("refresh " + token, "refresh " + token), presented(h));
            assertTrue(h.storedMark(), "the mark is stored: a restart and other processes see it");
            h.transport.handler = h.server;
            h.clock.advance(25_000);  // past the 20 s window: the rotation may be older than the grace
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(session.refresh()).kind());
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(session.sessions()).kind());
            assertEquals(false, await(session.signOut()), "nothing to present: the server is not told");
            assertEquals(2, presented(h).size(), "never presented again: " + presented(h));
            assertEquals(null, h.storedToken());
            assertTrue(h.states(3).contains("SIGNED_OUT(SESSION_ENDED)"), h.states(3).toString());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aRestartedProcessHonoursTheStoredMark() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            loseEveryRefreshAnswer(h);
            failure(session.refresh());
            h.transport.handler = h.server;
            h.clock.advance(25_000);
            SignInSession relaunched = h.session();  // the app was killed and starts again
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(relaunched.refresh()).kind());
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(relaunched.credentials()).kind());
            assertEquals(2, h.transport.calls("refresh").size(), "never presented again");
            assertEquals(null, h.storedToken());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void cachedCredentialsStayUsableUntilTheTokenIsNeeded() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            TemporaryCredentials held = await(session.credentials());
            loseEveryRefreshAnswer(h);
            failure(session.refresh());
            h.clock.advance(25_000);
            assertEquals(held.accessKeyId, await(session.credentials()).accessKeyId, "still valid, nothing presented");
            assertEquals(2, h.transport.calls("refresh").size());
        }
    }

    @Test
    void anotherActionFirstSettlesALostRefreshInsideTheWindow() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn(SignInConfiguration.builder(h.transport, h.store, h.executor).clock(h.clock)
                    .retryDelaysMillis(8_000));
            String token = h.storedToken();
            h.transport.handler = call -> {
                TransportAnswer answer = h.server.answer(call);
                if (call.action.equals("refresh")) {
                    throw SignInException.of(FailureKind.CONNECTION_LOST, "refresh", "test");
                }
                return answer;
            };
            failure(session.refresh());  // attempts at 0, 8 and 16 s; a fourth would start at 24 s
            h.transport.handler = h.server;
            assertEquals(1, await(session.sessions()).size());  // at 16 s: inside the window
            List<ScriptedTransport.Call> refreshes = h.transport.calls("refresh");
            assertEquals(4, refreshes.size());
            assertEquals(token, refreshes.get(3).token(), "the same token settles it");
            assertEquals(h.server.current(), h.transport.calls("list").get(0).token(), "then the action, with the new one");
            assertFalse(h.storedMark());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aMarkWrittenByAnotherProcessIsHonoured() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            SignInSession worker = h.session();  // another process over the store, loaded before the loss
            await(worker.currentUser());
            loseEveryRefreshAnswer(h);
            failure(app.refresh());
            h.transport.handler = h.server;
            h.clock.advance(25_000);
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(worker.sessions()).kind());
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(worker.refresh()).kind());
            assertEquals(2, presented(h).size(), "never presented again: " + presented(h));
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aReadOnlyProcessLeavesAMarkedTokenToTheMainProcess() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            SignInSession widget = h.session(SignInConfiguration.builder(h.transport, h.store, h.executor).clock(h.clock)
                    .refreshPolicy(RefreshPolicy.READ_ONLY));
            await(widget.currentUser());
            h.transport.handler = call -> {
                TransportAnswer answer = h.server.answer(call);
                if (call.action.equals("refresh")) {
                    return Answers.raw(200, "{\"success\": tru");  // unreadable: the server did rotate
                }
                return answer;
            };
            failure(app.refresh());
            assertEquals(FailureKind.REFRESH_NOT_ALLOWED, failure(widget.sessions()).kind());
            assertEquals(0, h.transport.calls("list").size());
            assertTrue(h.storedToken() != null, "the main process's business");
        }
    }

    @Test
    void failuresThatConsumedNothingMarkNothing() throws Exception {
        for (TransportAnswer failure : new TransportAnswer[] {Answers.raw(429, "{\"Message\":\"Rate Exceeded.\"}"),
                Answers.raw(503, "Service Unavailable"), Answers.error("UPSTREAM_UNAVAILABLE", 503),
                Answers.error("CONFLICT", 409)}) {
            try (Harness h = new Harness()) {
                SignInSession session = h.signedIn();
                h.transport.handler = call -> {
                    if (call.action.equals("refresh")) {
                        h.clock.advance(5_000);
                        return failure;
                    }
                    return h.server.answer(call);
                };
                failure(session.refresh());
                assertFalse(h.storedMark());
                h.clock.advance(60_000);
                h.transport.handler = h.server;
                await(session.refresh());  // presented again long after: nothing had rotated it
            }
        }
    }
}

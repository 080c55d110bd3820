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
 * Contract v5, "A phone's life never ends a session": a refresh whose answer was not read leaves
 * its token marked ({@code unansweredSince}, stored) and the token is presented again, the same
 * one, whenever credentials are next needed, however late, by whichever process or launch asks;
 * the server takes it while its successor was never presented. Nothing ends the session for time.
 */
class UnansweredRefreshTest {
    static final long TEN_MINUTES = 600_000;

    /** Every refresh reaches the server (which rotates) and its answer is lost after the whole timeout. */
    static void loseEveryRefreshAnswer(Harness h) {
        h.transport.handler = call -> {
            TransportAnswer answer = h.server.answer(call);
            if (call.action.equals("refresh")) {
                h.clock.advance(call.timeoutMillis);
                throw SignInException.of(FailureKind.TIMED_OUT, "refresh", "test");
            }
            return answer;
        };
    }

    static List<String> presented(Harness h) {
        List<String> out = new ArrayList<>();
        for (ScriptedTransport.Call c : h.transport.calls) {
            if (c.token() != null) {
                out.add(c.action + " " + c.token());
            }
        }
        return out;
    }

    @Test
    void aLostAnswerIsRetriedWithTheSameTokenHoweverLate() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            loseEveryRefreshAnswer(h);
            assertEquals(FailureKind.TIMED_OUT, failure(session.refresh()).kind());
            assertTrue(h.storedMark(), "the mark is stored: a restart and other processes see it");
            h.transport.handler = h.server;
            h.clock.advance(TEN_MINUTES);  // long past the server's 30 s grace
            await(session.refresh());
            List<ScriptedTransport.Call> refreshes = h.transport.calls("refresh");
            assertEquals(token, refreshes.get(refreshes.size() - 1).token(), "the same token, ten minutes on");
            assertEquals(1, await(session.sessions()).size());
            assertEquals(h.server.current(), h.storedToken());
            assertFalse(h.storedMark());
            assertFalse(h.states(3).toString().contains("SIGNED_OUT(SESSION_ENDED)"), h.states(3).toString());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aDeepSleepOfAnHourEndsNothingInThisProcessNorInARelaunch() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            loseEveryRefreshAnswer(h);
            failure(session.refresh());
            h.transport.handler = h.server;
            h.clock.wall.addAndGet(3_600_000);  // deep sleep: the wall clock moves, System.nanoTime() does not
            SignInSession relaunched = h.session();  // a fresh process reads only the stored mark
            await(relaunched.refresh());
            assertEquals(token, h.transport.calls("refresh").get(h.transport.calls("refresh").size() - 1).token());
            await(session.refresh());  // the frozen-clock process reconciles and refreshes on
            assertEquals(1, await(session.sessions()).size());
            assertFalse(h.server.reuseDetected);
            assertEquals(h.server.current(), h.storedToken());
        }
    }

    @Test
    void aMarkedTokenIsSettledAtTheNextCredentialsCallAndCachedOnesServeMeanwhile() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            TemporaryCredentials held = await(session.credentials());
            loseEveryRefreshAnswer(h);
            failure(session.refresh());
            h.clock.advance(TEN_MINUTES);
            h.transport.handler = call -> {
                throw SignInException.of(FailureKind.OFFLINE, call.action, "test");
            };
            assertEquals(held.accessKeyId, await(session.credentials()).accessKeyId, "offline: the cached ones");
            h.transport.handler = h.server;
            String renewed = await(session.credentials()).accessKeyId;
            assertFalse(renewed.equals(held.accessKeyId), "settled with a new answer");
            List<ScriptedTransport.Call> refreshes = h.transport.calls("refresh");
            assertEquals(token, refreshes.get(refreshes.size() - 1).token());
            assertFalse(h.storedMark());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void anotherActionFirstSettlesALostRefreshHoweverLate() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            loseEveryRefreshAnswer(h);
            failure(session.refresh());
            h.transport.handler = h.server;
            h.clock.advance(TEN_MINUTES);
            assertEquals(1, await(session.sessions()).size());
            List<ScriptedTransport.Call> refreshes = h.transport.calls("refresh");
            assertEquals(token, refreshes.get(refreshes.size() - 1).token(), "the same token settles it");
            assertEquals(h.server.current(), h.transport.calls("list").get(0).token(), "then the action, with the new one");
            assertFalse(h.storedMark());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aMarkWrittenByAnotherProcessIsSettledByItHoweverLate() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            String token = h.storedToken();
            SignInSession worker = h.session();  // another process over the store, loaded before the loss
            await(worker.currentUser());
            loseEveryRefreshAnswer(h);
            failure(app.refresh());
            h.transport.handler = h.server;
            h.clock.advance(TEN_MINUTES);
            assertEquals(1, await(worker.sessions()).size());
            List<ScriptedTransport.Call> refreshes = h.transport.calls("refresh");
            assertEquals(token, refreshes.get(refreshes.size() - 1).token());
            await(app.refresh());  // the app adopts the worker's rotation from the store
            assertFalse(h.server.reuseDetected);
            assertEquals(h.server.current(), h.storedToken());
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
    void failuresThatConsumedNothingLeaveNoMark() throws Exception {
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

package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static dev.signinbackend.client.Harness.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The refresh discipline of the contract's "The app's clients (v4)", one rule per test. */
class SignInSessionRefreshTest {
    @Test
    void fiftyConcurrentCallsNearExpiryMakeOneRefresh() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            TemporaryCredentials first = await(session.credentials());
            h.clock.advance(FakeServer.CREDENTIALS_MILLIS - 60_000);  // within the 5-minute margin
            CountDownLatch release = new CountDownLatch(1);
            h.transport.handler = call -> {
                if (call.action.equals("refresh")) {
                    hold(release);
                }
                return h.server.answer(call);
            };
            List<CompletableFuture<TemporaryCredentials>> calls = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                calls.add(session.credentials());
            }
            release.countDown();
            Set<String> keys = new HashSet<>();
            for (CompletableFuture<TemporaryCredentials> c : calls) {
                keys.add(await(c).accessKeyId);
            }
            assertEquals(1, h.transport.calls("refresh").size());
            assertEquals(1, keys.size());
            assertNotEquals(first.accessKeyId, keys.iterator().next());
        }
    }

    @Test
    void aLostAnswerIsRetriedWithTheSameTokenInsideTheGrace() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String signedIn = h.storedToken();
            int[] refreshes = {0};
            h.transport.handler = call -> {
                TransportAnswer answer = h.server.answer(call);  // the server rotates...
                if (call.action.equals("refresh") && refreshes[0]++ == 0) {
                    h.clock.advance(15_000);  // ...and the phone waits out its timeout, then loses the answer
                    throw SignInException.of(FailureKind.TIMED_OUT, "refresh", "test");
                }
                return answer;
            };
            await(session.refresh());
            List<ScriptedTransport.Call> trail = h.transport.calls("refresh");
            assertEquals(2, trail.size());
            assertEquals(signedIn, trail.get(0).token());
            assertEquals(signedIn, trail.get(1).token());  // the same token, never the lost one
            assertEquals(h.server.current(), h.storedToken());
            assertEquals(false, h.server.reuseDetected);
        }
    }

    @Test
    void noRetryStartsAfterTheGraceAndTheSessionIsKept() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            h.transport.handler = call -> {
                if (call.action.equals("refresh")) {
                    h.clock.advance(call.timeoutMillis);  // every attempt waits out its whole timeout
                    throw SignInException.of(FailureKind.TIMED_OUT, "refresh", "test");
                }
                return h.server.answer(call);
            };
            SignInException e = failure(session.refresh());
            assertEquals(FailureKind.TIMED_OUT, e.kind());
            assertEquals(Recommendation.RETRY_LATER, e.recommendation());
            // 15 s per attempt (10 s function timeout + 5 s margin): attempts start at 0 s and 15.5 s;
            // a third would start at 31.5 s, past the 25 s window inside the 30 s grace.
            assertEquals(2, h.transport.calls("refresh").size());
            assertEquals(token, h.storedToken());
            assertTrue(h.states(1).stream().noneMatch(s -> s.startsWith("SIGNED_OUT(SESSION")));
        }
    }

    @Test
    void noAttemptIsAbandonedBeforeTheFunctionsTimeout() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            await(session.refresh());
            await(session.link(Provider.GOOGLE, "google-id-token", null));
            assertEquals(15_000, h.transport.calls("signin").get(0).timeoutMillis);   // 10 s + 5 s
            assertEquals(15_000, h.transport.calls("refresh").get(0).timeoutMillis);  // 10 s + 5 s
            assertEquals(35_000, h.transport.calls("link").get(0).timeoutMillis);     // 30 s + 5 s
        }
    }

    @Test
    void expiryIsJudgedOnTheServersClockNotTheDevices() throws Exception {
        for (long skew : new long[] {-5 * 3_600_000L, 5 * 3_600_000L}) {
            try (Harness h = new Harness()) {
                h.server.skewMillis = skew;  // the device's clock is hours off
                SignInSession session = h.signedIn();
                for (int i = 0; i < 5; i++) {
                    await(session.credentials());
                }
                assertEquals(0, h.transport.calls("refresh").size(), "fresh credentials are not refreshed");
                h.clock.advance(FakeServer.CREDENTIALS_MILLIS - 120_000);
                await(session.credentials());
                assertEquals(1, h.transport.calls("refresh").size(), "credentials near expiry are");
            }
        }
    }

    @Test
    void anUnreadableAnswerIsRetriedWithTheSameToken() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            int[] refreshes = {0};
            h.transport.handler = call -> {
                TransportAnswer answer = h.server.answer(call);
                if (call.action.equals("refresh") && refreshes[0]++ == 0) {
                    return Answers.raw(200, "{\"success\": tru");  // cut off: the server did rotate
                }
                return answer;
            };
            await(session.refresh());
            assertEquals(token, h.transport.calls("refresh").get(1).token());
            assertEquals(h.server.current(), h.storedToken());
        }
    }

    @Test
    void throttlingAndGatewayFailuresKeepTheSession() throws Exception {
        for (TransportAnswer failure : new TransportAnswer[] {Answers.raw(429, "{\"Message\":\"Too Many Requests\"}"),
                Answers.raw(503, "Service Unavailable"), Answers.error("UPSTREAM_UNAVAILABLE", 503),
                Answers.error("CONFLICT", 409)}) {
            try (Harness h = new Harness()) {
                SignInSession session = h.signedIn();
                String token = h.storedToken();
                h.transport.handler = call -> call.action.equals("refresh") ? failure : h.server.answer(call);
                SignInException e = failure(session.refresh());
                assertEquals(Recommendation.RETRY_LATER, e.recommendation(), e.getMessage());
                assertTrue(h.transport.calls("refresh").size() > 1, "retried");
                assertEquals(token, h.storedToken());
                h.transport.handler = h.server;
                await(session.refresh());  // and it recovers
            }
        }
    }

    @Test
    void onlyTheDefinitiveCodesEndTheSession() throws Exception {
        String[][] cases = {{"SESSION_INVALID", "SIGNED_OUT(SESSION_ENDED)"},
                {"ACCOUNT_NOT_FOUND", "SIGNED_OUT(ACCOUNT_NOT_FOUND)"}, {"ACCOUNT_DISABLED", "SIGNED_OUT(ACCOUNT_DISABLED)"},
                {"INVALID_REQUEST", null}, {"REAUTHENTICATION_REQUIRED", null}, {"IDENTITY_SUSPENDED", null},
                {"SOME_FUTURE_CODE", null}};
        for (String[] c : cases) {
            try (Harness h = new Harness()) {
                SignInSession session = h.signedIn();
                h.transport.handler = call -> call.action.equals("refresh") ? Answers.error(c[0], 401) : h.server.answer(call);
                SignInException e = failure(session.refresh());
                assertEquals(c[0], e.code().value());
                if (c[1] == null) {
                    assertTrue(h.storedToken() != null, c[0] + " keeps the session");
                } else {
                    assertEquals(null, h.storedToken(), c[0] + " clears the store");
                    assertTrue(h.states(3).contains(c[1]), c[0] + ": " + h.states(3));
                }
            }
        }
    }

    @Test
    void aLateAnswerAfterSignOutIsDropped() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            CountDownLatch arrived = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            h.transport.handler = call -> {
                if (call.action.equals("refresh")) {
                    arrived.countDown();
                    hold(release);
                }
                return h.server.answer(call);
            };
            CompletableFuture<User> refresh = session.refresh();
            assertTrue(arrived.await(10, TimeUnit.SECONDS));
            CompletableFuture<Boolean> signOut = session.signOut();
            // Signed out here at once; the store's removal waits for the refresh's lock.
            assertEquals("SIGNED_OUT(USER_SIGNED_OUT)", h.states(3).get(2));
            release.countDown();
            assertEquals(true, await(signOut));
            assertEquals(FailureKind.SESSION_CHANGED, failure(refresh).kind());
            assertEquals(null, h.storedToken());
            assertEquals(List.of("SIGNED_OUT(NO_SESSION)", "SIGNED_IN", "SIGNED_OUT(USER_SIGNED_OUT)"), h.states(3));
            assertEquals(null, await(session.currentUser()));
        }
    }

    @Test
    void theRotatedTokenIsStoredBeforeAnyoneSeesIt() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            List<String> storedWhenHeard = new ArrayList<>();
            CountDownLatch heard = new CountDownLatch(1);
            CountDownLatch registered = new CountDownLatch(1);
            session.addAuthStateListener(state -> {
                registered.countDown();
                if (state.kind == AuthStateKind.REFRESHED) {
                    try {
                        storedWhenHeard.add(h.storedToken());
                    } catch (Exception e) {
                        storedWhenHeard.add("unreadable");
                    }
                    heard.countDown();
                }
            });
            hold(registered);
            await(session.refresh());
            assertTrue(heard.await(10, TimeUnit.SECONDS));
            assertEquals(List.of(h.server.current()), storedWhenHeard);
        }
    }

    private static void hold(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("latch never released");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}

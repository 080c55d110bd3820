package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static dev.signinbackend.client.Harness.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The durable "in flight" mark is on disk before a refresh leaves, and the rotated token before it
 * is presented (contract v5, "The app's clients"): a process killed at any moment leaves a store
 * whose token the server still takes, marked when a refresh of it may have rotated it.
 */
class InFlightMarkTest {
    /** A store whose saves fail from the {@code failFrom}-th one on (1-based; 0: never), while {@code failing} lasts. */
    static final class CountingStore implements SessionStore {
        final InMemorySessionStore inner = new InMemorySessionStore();
        final AtomicInteger saves = new AtomicInteger();
        volatile int failFrom;

        @Override
        public byte[] load() throws SessionStoreException {
            return inner.load();
        }

        @Override
        public void save(byte[] data) throws SessionStoreException {
            int n = saves.incrementAndGet();
            if (failFrom > 0 && n >= failFrom) {
                throw new SessionStoreException("disk full");
            }
            inner.save(data);
        }

        @Override
        public void remove() throws SessionStoreException {
            inner.remove();
        }
    }

    @Test
    void theMarkIsOnDiskWhenTheRequestLeaves() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            List<byte[]> storeAtSend = new ArrayList<>();
            h.transport.handler = call -> {
                if (call.action.equals("refresh")) {
                    try {
                        storeAtSend.add(h.store.load());  // what a kill right now would leave behind
                    } catch (SessionStoreException e) {
                        throw new IllegalStateException(e);
                    }
                }
                return h.server.answer(call);
            };
            await(session.refresh());
            StoredSession left = StoredSession.decode(storeAtSend.get(0));
            assertTrue(left.isUnanswered(), "marked before the request left");
            assertEquals(token, left.refreshToken);
            assertFalse(h.storedMark(), "an answer read takes the mark off with the new token");
        }
    }

    @Test
    void aRelaunchAfterAKillMidRefreshSettlesTheSameTokenLate() throws Exception {
        try (Harness h = new Harness()) {
            h.signedIn();
            String token = h.storedToken();
            byte[][] leftBehind = new byte[1][];
            h.transport.handler = call -> {
                TransportAnswer answer = h.server.answer(call);  // the server commits the rotation
                if (call.action.equals("refresh")) {
                    try {
                        leftBehind[0] = h.store.load();  // the process dies here: the store is what stays
                    } catch (SessionStoreException e) {
                        throw new IllegalStateException(e);
                    }
                    throw SignInException.of(FailureKind.CANCELLED, "refresh", "killed");
                }
                return answer;
            };
            failure(h.session().refresh());
            h.transport.handler = h.server;
            h.clock.advance(UnansweredRefreshTest.TEN_MINUTES);
            h.store = new InMemorySessionStore(leftBehind[0]);
            SignInSession relaunched = h.session();
            assertEquals(1, await(relaunched.sessions()).size(), "the marked token is settled first, then listed");
            List<ScriptedTransport.Call> refreshes = h.transport.calls("refresh");
            assertEquals(token, refreshes.get(refreshes.size() - 1).token());
            assertEquals(h.server.current(), h.transport.calls("list").get(0).token());
            assertFalse(h.server.reuseDetected);
        }
    }

    @Test
    void aMarkThatCannotBeWrittenSendsNothing() throws Exception {
        try (Harness h = new Harness()) {
            CountingStore store = new CountingStore();
            h.store = store;
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            store.failFrom = store.saves.get() + 1;
            assertEquals(FailureKind.STORE_UNREADABLE, failure(session.refresh()).kind());
            assertEquals(0, h.transport.calls("refresh").size(), "nothing sent without the mark on disk");
            assertEquals(token, h.storedToken());
            store.failFrom = 0;
            await(session.refresh());
            assertEquals(token, h.transport.calls("refresh").get(0).token());
        }
    }

    @Test
    void aRotatedTokenThatCannotBeStoredIsNeverPresented() throws Exception {
        try (Harness h = new Harness()) {
            CountingStore store = new CountingStore();
            h.store = store;
            SignInSession session = h.signedIn();
            String token = h.storedToken();
            store.failFrom = store.saves.get() + 2;  // the mark is written, the answer's session is not
            assertEquals(FailureKind.STORE_UNREADABLE, failure(session.refresh()).kind());
            String lost = h.server.current();
            assertEquals(token, h.storedToken(), "the store keeps the old token, marked");
            assertTrue(h.storedMark());
            store.failFrom = 0;
            h.clock.advance(UnansweredRefreshTest.TEN_MINUTES);
            assertEquals(1, await(session.sessions()).size());
            for (ScriptedTransport.Call c : h.transport.calls) {
                assertFalse(lost.equals(c.token()), "the token held only in memory was presented: " + c.action);
            }
            assertEquals(token, h.transport.calls("refresh").get(1).token());
            assertEquals(h.server.current(), h.storedToken());
            assertFalse(h.server.reuseDetected);
        }
    }
}

package dev.signinbackend.client;

import static dev.signinbackend.client.Harness.await;
import static dev.signinbackend.client.Harness.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The stored state: what listeners hear first, unreadable stores, failed writes, other processes. */
class SessionStateTest {
    /** A store that fails its next {@code failures} writes. */
    static final class FlakyStore implements SessionStore {
        final InMemorySessionStore inner = new InMemorySessionStore();
        final AtomicInteger failures = new AtomicInteger();
        volatile boolean unreadable;

        @Override
        public byte[] load() throws SessionStoreException {
            if (unreadable) {
                throw new SessionStoreException("the session file failed authentication");
            }
            return inner.load();
        }

        @Override
        public void save(byte[] data) throws SessionStoreException {
            if (failures.getAndDecrement() > 0) {
                throw new SessionStoreException("disk full");
            }
            inner.save(data);
        }

        @Override
        public void remove() throws SessionStoreException {
            if (failures.getAndDecrement() > 0) {
                throw new SessionStoreException("disk full");
            }
            inner.remove();
        }
    }

    @Test
    void aListenerHearsTheStoredSessionAtOnce() throws Exception {
        try (Harness h = new Harness()) {
            h.signedIn();
            Harness.await(h.session().currentUser());  // a second process over the same store
            List<String> states = h.states(3);
            assertEquals(List.of("SIGNED_OUT(NO_SESSION)", "SIGNED_IN", "SIGNED_IN"), states);
        }
    }

    @Test
    void anUnreadableStoreIsUnknownNeverSignedOut() throws Exception {
        try (Harness h = new Harness()) {
            FlakyStore store = new FlakyStore();
            h.store = store;
            h.signedIn();
            store.unreadable = true;
            SignInSession later = h.session();  // the next launch cannot read the store
            assertEquals("UNKNOWN", h.states(3).get(2));
            SignInException e = failure(later.credentials());
            assertEquals(FailureKind.STORE_UNREADABLE, e.kind());
            assertEquals(Recommendation.RETRY_LATER, e.recommendation());
            assertEquals(0, h.transport.calls("refresh").size());
            store.unreadable = false;  // readable again (the key came back): signed in, nothing was lost
            assertNotNull(await(later.credentials()));
            assertEquals("SIGNED_IN", h.states(4).get(3));
        }
    }

    @Test
    void aFailedWriteOfTheUserIsOwedAndWrittenLater() throws Exception {
        try (Harness h = new Harness()) {
            FlakyStore store = new FlakyStore();
            h.store = store;
            SignInSession session = h.signedIn();
            store.failures.set(1);
            await(session.link(Provider.GOOGLE, "google-id-token", null));  // its user write fails: owed
            await(session.refresh());  // the owed write goes first, then the refresh as usual
            assertEquals(h.server.current(), StoredSession.decode(store.inner.load()).refreshToken);
        }
    }

    @Test
    void anAnswerAboutATokenTheStoreNoLongerHoldsClearsNothing() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            SignInSession other = h.session();  // another process sharing the store
            await(other.refresh());  // rotates: the store holds the new token
            String rotated = h.storedToken();
            // this process still holds the old token in memory; its list reconciles with the store first
            assertEquals(1, await(app.sessions()).size());
            assertEquals(rotated, h.transport.calls("list").get(0).token());
            assertEquals(rotated, h.storedToken());
        }
    }

    @Test
    void twoSessionsOverOneStoreMakeOneRefresh() throws Exception {
        // Two processes (or a second object by mistake) over one store: the store's lock and the
        // re-read under it make their concurrent refreshes one.
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            SignInSession worker = h.session();
            await(worker.currentUser());
            h.clock.advance(FakeServer.CREDENTIALS_MILLIS - 60_000);
            java.util.List<java.util.concurrent.CompletableFuture<TemporaryCredentials>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                calls.add((i % 2 == 0 ? app : worker).credentials());
            }
            java.util.Set<String> keys = new java.util.HashSet<>();
            for (java.util.concurrent.CompletableFuture<TemporaryCredentials> c : calls) {
                keys.add(await(c).accessKeyId);
            }
            assertEquals(1, h.transport.calls("refresh").size());
            assertEquals(1, keys.size());
        }
    }

    @Test
    void aReadOnlyProcessNeverRefreshes() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            SignInSession widget = h.session(SignInConfiguration.builder(h.transport, h.store, h.executor).clock(h.clock)
                    .refreshPolicy(RefreshPolicy.READ_ONLY));
            h.clock.advance(FakeServer.CREDENTIALS_MILLIS - 60_000);
            assertNotNull(await(widget.credentials()));  // inside the margin, not expired: used as they are
            h.clock.advance(120_000);
            assertEquals(FailureKind.REFRESH_NOT_ALLOWED, failure(widget.credentials()).kind());
            assertEquals(0, h.transport.calls("refresh").size());
            await(app.credentials());  // the app refreshes; the widget follows the store
            TemporaryCredentials fresh = await(widget.credentials());
            assertEquals(await(app.credentials()).accessKeyId, fresh.accessKeyId);
            assertEquals(1, h.transport.calls("refresh").size());
        }
    }

    @Test
    void signOutElsewhereEndsTheSessionAndClearsTheStore() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            h.server.revoke();
            SignInException e = failure(session.sessions());
            assertEquals(ErrorCode.SESSION_INVALID, e.code());
            assertEquals(null, h.storedToken());
            assertTrue(h.states(3).contains("SIGNED_OUT(SESSION_ENDED)"));
            assertEquals(FailureKind.NOT_SIGNED_IN, failure(session.credentials()).kind());
        }
    }

    @Test
    void unlinkingTheSignInIdentityOrDeletingEndsTheSession() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            await(session.unlink(Provider.GOOGLE));  // another provider: the session stays
            assertNotNull(h.storedToken());
            await(session.unlink(Provider.APPLE));
            assertEquals(null, h.storedToken());
            assertTrue(h.states(3).contains("SIGNED_OUT(SIGN_IN_IDENTITY_UNLINKED)"));
        }
    }

    @Test
    void signingOutTheCurrentSessionByItsIdSignsOutHere() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession session = h.signedIn();
            SessionSummary current = await(session.sessions()).get(0);
            h.transport.handler = call -> call.action.equals("signoutSession")
                    ? Answers.ok(Answers.object("{\"signedOut\":true}"), h.server.serverNow()) : h.server.answer(call);
            await(session.signOutSession(current.sessionId));
            assertEquals(null, h.storedToken());
        }
    }

    @Test
    void signOutPresentsTheTokenTheStoreHoldsNow() throws Exception {
        try (Harness h = new Harness()) {
            SignInSession app = h.signedIn();
            SignInSession worker = h.session();  // another process rotates: this one's copy is rotated out
            await(worker.refresh());
            String rotated = h.storedToken();
            assertEquals(true, await(app.signOut()));
            assertEquals(rotated, h.transport.calls("signout").get(0).token());
        }
    }

    /** The store's lock, as another process would take it: it only writes once the lock is free. */
    static final class OtherProcessStore implements SessionStore {
        final InMemorySessionStore inner = new InMemorySessionStore();
        final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        volatile byte[] otherProcessWrites;
        volatile Thread otherProcess;

        @Override
        public byte[] load() {
            byte[] data = inner.load();
            byte[] write = otherProcessWrites;
            if (write != null) {  // the other process writes right after this read, when it can take the lock
                otherProcessWrites = null;
                otherProcess = new Thread(() -> {
                    lock.lock();
                    try {
                        inner.save(write);
                    } finally {
                        lock.unlock();
                    }
                });
                otherProcess.start();
                if (!lock.isHeldByCurrentThread()) {
                    join(otherProcess);  // nothing holds it off: its write lands before this read returns
                }
            }
            return data;
        }

        @Override
        public void save(byte[] data) {
            inner.save(data);
        }

        @Override
        public void remove() {
            inner.remove();
        }

        @Override
        public StoreLock lock() {
            lock.lock();
            return lock::unlock;
        }

        private static void join(Thread t) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aDefinitiveAnswerClearsTheStoreOnlyWhileHoldingItsLock() throws Exception {
        // SESSION_INVALID to this process's list; between the check that the store still holds the
        // refused token and its removal, another process wants to store a new sign-in. Under the
        // lock it waits, and its sign-in survives; without it, the removal would delete it.
        try (Harness h = new Harness()) {
            OtherProcessStore store = new OtherProcessStore();
            h.store = store;
            SignInSession session = h.signedIn();
            byte[] otherSignIn = h.storedSession().withUser(h.storedSession().user).encode();
            h.server.revoke();
            h.transport.handler = call -> {
                if (call.action.equals("list")) {
                    store.otherProcessWrites = otherSignIn;  // armed for the re-read after the refusal
                }
                return h.server.answer(call);
            };
            assertEquals(ErrorCode.SESSION_INVALID, failure(session.sessions()).code());
            OtherProcessStore.join(store.otherProcess);
            assertNotNull(store.inner.load(), "the other process's write survived");
        }
    }

    @Test
    void aReadOnlyProcessPresentsNothingWhileTheStoreIsUnreadable() throws Exception {
        try (Harness h = new Harness()) {
            FlakyStore store = new FlakyStore();
            h.store = store;
            h.signedIn();
            SignInSession widget = h.session(SignInConfiguration.builder(h.transport, h.store, h.executor).clock(h.clock)
                    .refreshPolicy(RefreshPolicy.READ_ONLY));
            await(widget.currentUser());
            store.unreadable = true;  // its copy may be rotated out by now: never presented
            assertEquals(FailureKind.STORE_UNREADABLE, failure(widget.sessions()).kind());
            assertEquals(0, h.transport.calls("list").size());
        }
    }
}

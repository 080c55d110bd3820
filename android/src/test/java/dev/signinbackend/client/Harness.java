package dev.signinbackend.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A session over a scripted transport, a fake clock and an in-memory store, with its states recorded. */
final class Harness implements AutoCloseable {
    static final long START = Timestamps.parse("2026-03-01T12:00:00Z");

    final FakeClock clock = new FakeClock(START);
    final FakeServer server = new FakeServer(clock);
    final ScriptedTransport transport = new ScriptedTransport(server);
    final ExecutorService executor = Executors.newFixedThreadPool(8);
    final List<AuthState> states = Collections.synchronizedList(new ArrayList<>());
    SessionStore store = new InMemorySessionStore();

    SignInSession session() {
        return session(SignInConfiguration.builder(transport, store, executor).clock(clock));
    }

    SignInSession session(SignInConfiguration.Builder builder) {
        SignInSession session = new SignInSession(builder.build());
        int before = states.size();
        session.addAuthStateListener(states::add);
        for (int i = 0; i < 2_000 && states.size() == before; i++) {
            sleepQuietly();  // the stored state arrives first, before anything this test does
        }
        return session;
    }

    SignInSession signedIn() throws Exception {
        return signedIn(SignInConfiguration.builder(transport, store, executor).clock(clock));
    }

    SignInSession signedIn(SignInConfiguration.Builder builder) throws Exception {
        SignInSession session = session(builder);
        int before = states.size();
        await(session.signIn(Provider.APPLE, "apple-id-token"));
        // The future and the listener are called on different lanes: wait until SIGNED_IN was heard.
        for (int i = 0; i < 2_000 && states.size() == before; i++) {
            sleepQuietly();
        }
        return session;
    }

    /** The future's value, or its SignInException thrown (bounded: a test never hangs). */
    static <T> T await(Future<T> future) throws Exception {
        try {
            return future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        } catch (TimeoutException e) {
            throw new AssertionError("the future did not complete within 20 s", e);
        }
    }

    static SignInException failure(Future<?> future) throws Exception {
        try {
            await(future);
        } catch (SignInException e) {
            return e;
        }
        throw new AssertionError("expected a SignInException");
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The states heard so far, once {@code count} have arrived (bounded wait). */
    List<String> states(int count) {
        for (int i = 0; i < 2_000 && states.size() < count; i++) {
            sleepQuietly();
        }
        List<String> out = new ArrayList<>();
        synchronized (states) {
            for (AuthState s : states) {
                out.add(s.toString());
            }
        }
        return out;
    }

    String storedToken() throws Exception {
        StoredSession stored = storedSession();
        return stored == null ? null : stored.refreshToken;
    }

    /** Whether the stored session marks its token as having a refresh answer that was not read. */
    boolean storedMark() throws Exception {
        byte[] data = store.load();
        return data != null && Answers.object(new String(data, java.nio.charset.StandardCharsets.UTF_8))
                .has("unansweredSince");
    }

    StoredSession storedSession() throws Exception {
        byte[] data = store.load();
        return data == null ? null : StoredSession.decode(data);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

package dev.signinbackend.client.integration;

import dev.signinbackend.client.AppleAuthorizationRequest;
import dev.signinbackend.client.AppleWebReturn;
import dev.signinbackend.client.AppleWebSignIn;
import dev.signinbackend.client.Clock;
import dev.signinbackend.client.EncryptedFileSessionStore;
import dev.signinbackend.client.FunctionUrlTransport;
import dev.signinbackend.client.Provider;
import dev.signinbackend.client.SessionStore;
import dev.signinbackend.client.SessionStoreException;
import dev.signinbackend.client.SessionSummary;
import dev.signinbackend.client.SignInConfiguration;
import dev.signinbackend.client.SignInException;
import dev.signinbackend.client.SignInFunction;
import dev.signinbackend.client.SignInIntent;
import dev.signinbackend.client.SignInResult;
import dev.signinbackend.client.SignInSession;
import dev.signinbackend.client.SignInTransport;
import dev.signinbackend.client.SoftwareKeyProvider;
import dev.signinbackend.client.TemporaryCredentials;
import dev.signinbackend.client.User;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * One step of Tests/integration/test_android_client.py against scripts/serve's server, as its own
 * process (a phone's app process: killed, restarted, sharing the encrypted store file between
 * steps). The test arms the server's faults before a step and reads the server's counts and token
 * trail after it. Prints one JSON line; never a token.
 *
 * Usage: ClientScenarios STEP --signin URL --refresh URL --link URL --store FILE [--token JWT] ...
 */
public final class ClientScenarios {
    private final Map<String, String> args;
    private final ExecutorService io = Executors.newFixedThreadPool(8);
    private final List<String> states = new ArrayList<>();
    private final AtomicLong shift = new AtomicLong();
    /** A deep sleep (--deep-sleep): System.nanoTime() stands still while the wall clock moves on. */
    private final boolean deepSleep;
    private final long frozenMonotonic = System.nanoTime() / 1_000_000;
    private final Clock clock = new Clock() {
        @Override
        public long wallMillis() {
            return System.currentTimeMillis() + shift.get();
        }

        @Override
        public long monotonicMillis() {
            return deepSleep ? frozenMonotonic : System.nanoTime() / 1_000_000 + shift.get();
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };

    private ClientScenarios(Map<String, String> args) {
        this.args = args;
        this.deepSleep = args.containsKey("deep-sleep");
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (int i = 1; i + 1 < argv.length; i += 2) {
            args.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        ClientScenarios s = new ClientScenarios(args);
        JSONObject out;
        try {
            out = s.run(argv[0]);
        } finally {
            s.io.shutdownNow();
        }
        System.out.println(out.toString());
        System.exit(0);
    }

    private SessionStore fileStore() {
        File file = new File(args.get("store"));
        return new EncryptedFileSessionStore(file, SoftwareKeyProvider.inFile(new File(file.getPath() + ".key")));
    }

    private SignInTransport transport() {
        SignInTransport inner = new FunctionUrlTransport(args.get("signin"), args.get("refresh"), args.get("link"));
        if (!args.containsKey("hold")) {
            return inner;
        }
        // --hold PATH: the first refresh's answer (or its loss) has come back from the server; the
        // process pauses right there (PATH.held written) until PATH.go appears, so the test can
        // freeze it (SIGSTOP) or kill it (SIGKILL) at exactly that moment of the refresh.
        boolean[] held = new boolean[1];
        return (function, action, event, timeout) -> {
            if (function != SignInFunction.REFRESH || !action.equals("refresh") || held[0]) {
                return inner.send(function, action, event, timeout);
            }
            held[0] = true;
            try {
                return inner.send(function, action, event, timeout);
            } finally {
                pause(args.get("hold"));
            }
        };
    }

    /** Writes PATH.held, then waits (bounded) until PATH.go exists. */
    private static void pause(String path) {
        try {
            Files.write(new File(path + ".held").toPath(), new byte[0]);
            for (int i = 0; i < 6_000 && !new File(path + ".go").exists(); i++) {
                Thread.sleep(50);
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the hold file cannot be written", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SignInSession session(SignInTransport transport, SessionStore store) throws Exception {
        SignInConfiguration.Builder b = SignInConfiguration.builder(transport, store, io).clock(clock)
                .device("integration · " + args.getOrDefault("device", "android"));
        if (args.containsKey("budget")) {  // a shorter retry budget keeps outage steps short
            b.retryBudgetMillis(Long.parseLong(args.get("budget"))).retryDelaysMillis(200, 400, 800);
        }
        if (args.containsKey("delays")) {
            b.retryDelaysMillis(java.util.Arrays.stream(args.get("delays").split(",")).mapToLong(Long::parseLong).toArray());
        }
        if (args.containsKey("policy")) {
            b.refreshPolicy(dev.signinbackend.client.RefreshPolicy.valueOf(args.get("policy")));
        }
        SignInSession session = new SignInSession(b.build());
        CountDownLatch first = new CountDownLatch(1);
        session.addAuthStateListener(state -> {
            synchronized (states) {
                states.add(state.toString());
            }
            first.countDown();
        });
        first.await(10, TimeUnit.SECONDS);
        return session;
    }

    private SignInSession session() throws Exception {
        return session(transport(), fileStore());
    }

    private JSONObject run(String step) throws Exception {
        switch (step) {
            case "signin": {  // Apple, sign-up, unless --provider / --intent say otherwise
                SignInSession s = session();
                Provider provider = Provider.valueOf(args.getOrDefault("provider", "apple").toUpperCase());
                SignInIntent intent = SignInIntent.valueOf(args.getOrDefault("intent", "SIGN_UP"));
                return result(() -> new JSONObject().put("isNewUser",
                        get(s.signIn(provider, args.get("token"), intent, null, null)).isNewUser), s);
            }
            case "link": {  // links --provider with --token to the stored session's account
                SignInSession s = session();
                Provider provider = Provider.valueOf(args.getOrDefault("provider", "google").toUpperCase());
                return result(() -> new JSONObject().put("linked", get(s.link(provider, args.get("token"), null)).status), s);
            }
            case "signin-user": {  // a sign-in (test_client_transfer.py) and the user it answers
                SignInSession s = session();
                return result(() -> {
                    SignInResult r = get(s.signIn(Provider.APPLE, args.get("token"), SignInIntent.AUTO, null, null));
                    return new JSONObject().put("isNewUser", r.isNewUser).put("serviceUserID", r.user.serviceUserID)
                            .put("appleUserId", r.user.appleUserId());
                }, s);
            }
            case "refresh-user": {  // a later launch: a refresh, and the user it reports and stores
                SignInSession s = session();
                return result(() -> {
                    User user = get(s.refresh());
                    return new JSONObject().put("serviceUserID", user.serviceUserID).put("appleUserId", user.appleUserId())
                            .put("storedAppleUserId", get(session().currentUser()).appleUserId());
                }, s);
            }
            case "refresh": {
                SignInSession s = session();
                return result(() -> new JSONObject().put("refreshed", get(s.refresh()) != null), s);
            }
            case "list": {
                SignInSession s = session();
                return result(() -> {
                    List<SessionSummary> all = get(s.sessions());
                    return new JSONObject().put("sessions", all.size()).put("current",
                            all.stream().anyMatch(x -> x.current));
                }, s);
            }
            case "state": {
                SignInSession s = session();
                return result(() -> new JSONObject().put("keyId", get(s.credentials()).accessKeyId.substring(0, 4)), s);
            }
            case "refresh-twice": return refreshTwice();
            case "deep-sleep": return deepSleepStep();
            case "worker": return worker();
            case "peek": return peek();
            case "concurrent": return concurrent();
            case "signout-elsewhere": return signOutElsewhere();
            case "late": return late();
            case "halt": return halt();
            case "apple-request": {
                AppleAuthorizationRequest r = AppleWebSignIn.authorizationRequest(args.get("services-id"),
                        args.get("signin") + "/apple/callback");
                Files.write(new File(args.get("request")).toPath(), r.toJson().getBytes(StandardCharsets.UTF_8));
                return new JSONObject().put("authorizationUrl", r.authorizationUrl).put("state", r.state)
                        .put("rawNonce", r.rawNonce);
            }
            case "apple-return": {
                AppleAuthorizationRequest r = AppleAuthorizationRequest.fromJson(
                        new String(Files.readAllBytes(new File(args.get("request")).toPath()), StandardCharsets.UTF_8));
                SignInSession s = session();
                return result(() -> {
                    AppleWebReturn back = AppleWebSignIn.readReturn(r, args.get("location"));
                    return new JSONObject().put("fullName", back.fullName).put("isNewUser",
                            get(s.signIn(Provider.APPLE, back.idToken, SignInIntent.AUTO, r.rawNonce, back.fullName)).isNewUser);
                }, s);
            }
            default:
                throw new IllegalArgumentException("unknown step " + step);
        }
    }

    /** A refresh (its outcome, whatever it is), then another and a list: the app carrying on after it. */
    private JSONObject refreshTwice() throws Exception {
        SignInSession s = session();
        String first = outcome(s.refresh());
        return result(() -> new JSONObject().put("first", first).put("second", outcome(s.refresh()))
                .put("sessions", get(s.sessions()).size()), s);
    }

    /**
     * A refresh whose answers are lost; then the phone sleeps (PATH.held, wait for PATH.go): the
     * monotonic clock stands still (--deep-sleep) and the wall clock moves an hour on; then the app
     * needs credentials again.
     */
    private JSONObject deepSleepStep() throws Exception {
        SignInSession s = session();
        String first = outcome(s.refresh());
        pause(args.get("pause"));
        shift.addAndGet(3_600_000);
        return result(() -> new JSONObject().put("first", first).put("second", outcome(s.refresh()))
                .put("sessions", get(s.sessions()).size()), s);
    }

    /** A second process of the app over the store: loads it, pauses (PATH.held, PATH.go), then lists and refreshes. */
    private JSONObject worker() throws Exception {
        SignInSession s = session();
        get(s.currentUser());
        pause(args.get("pause"));
        return result(() -> new JSONObject().put("sessions", get(s.sessions()).size()).put("refresh", outcome(s.refresh())),
                s);
    }

    /** What a process reading the store sees now: the user, the credentials, and whether a refresh is marked in flight. */
    private JSONObject peek() throws Exception {
        SignInSession s = session();
        return result(() -> {
            byte[] stored = fileStore().load();
            boolean marked = stored != null && new JSONObject(new String(stored, StandardCharsets.UTF_8))
                    .has("unansweredSince");
            return new JSONObject().put("marked", marked).put("keyId", get(s.credentials()).accessKeyId.substring(0, 4));
        }, s);
    }

    /** A call's outcome as a word: "ok", or the failure's code or kind. */
    private static String outcome(CompletableFuture<?> call) throws Exception {
        try {
            get(call);
            return "ok";
        } catch (SignInException e) {
            return e.code() != null ? e.code().value() : e.kind().name();
        }
    }

    /** 50 concurrent credentials() with the credentials a minute from expiry: one refresh. */
    private JSONObject concurrent() throws Exception {
        SignInSession s = session();
        TemporaryCredentials before = get(s.credentials());
        shift.set(before.expirationMillis - 60_000 - System.currentTimeMillis());
        List<CompletableFuture<TemporaryCredentials>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(s.credentials());
        }
        Set<String> keys = new HashSet<>();
        for (CompletableFuture<TemporaryCredentials> c : calls) {
            keys.add(get(c).accessKeyId);
        }
        return new JSONObject().put("distinctKeys", keys.size()).put("renewed", !keys.contains(before.accessKeyId));
    }

    /** Another holder of the session signs it out (a copy of the store, as another device would). */
    private JSONObject signOutElsewhere() throws Exception {
        byte[] copy = fileStore().load();
        SignInSession other = session(transport(), new dev.signinbackend.client.InMemorySessionStore(copy));
        return new JSONObject().put("confirmed", get(other.signOut()));
    }

    /** A refresh whose answer the server holds back; the user signs out meanwhile. */
    private JSONObject late() throws Exception {
        CountDownLatch sent = new CountDownLatch(1);
        SignInTransport inner = transport();
        SignInTransport watched = (function, action, event, timeout) -> {
            if (function == SignInFunction.REFRESH && action.equals("refresh")) {
                sent.countDown();
            }
            return inner.send(function, action, event, timeout);
        };
        SignInSession s = session(watched, fileStore());
        CompletableFuture<?> refresh = s.refresh();
        sent.await(20, TimeUnit.SECONDS);
        boolean confirmed = get(s.signOut());
        String outcome;
        try {
            get(refresh);
            outcome = "refreshed";
        } catch (SignInException e) {
            outcome = e.kind().name();
        }
        settle(s);  // the refresh's outcome came after its answer was dropped: nothing can publish after it
        return new JSONObject().put("refresh", outcome).put("signOutConfirmed", confirmed)
                .put("storeExists", new File(args.get("store")).exists()).put("states", states())
                .put("user", get(s.currentUser()) == null ? "none" : "some");
    }

    /** The process dies the moment the refresh answer arrives: before its store write, or right after. */
    private JSONObject halt() throws Exception {
        SessionStore real = fileStore();
        boolean beforeSave = args.get("when").equals("before-save");
        SessionStore dying = new SessionStore() {
            @Override
            public byte[] load() throws SessionStoreException {
                return real.load();
            }

            @Override
            public void save(byte[] data) throws SessionStoreException {
                boolean inFlightMark = new String(data, StandardCharsets.UTF_8).contains("\"unansweredSince\"");
                if (inFlightMark) {  // written before the request leaves: the answer has not arrived yet
                    real.save(data);
                    return;
                }
                if (beforeSave) {
                    Runtime.getRuntime().halt(3);
                }
                real.save(data);
                Runtime.getRuntime().halt(3);
            }

            @Override
            public void remove() throws SessionStoreException {
                real.remove();
            }

            @Override
            public dev.signinbackend.client.StoreLock lock() throws SessionStoreException {
                return real.lock();
            }
        };
        SignInSession s = session(transport(), dying);
        get(s.refresh());
        return new JSONObject().put("halted", false);
    }

    private interface Step {
        JSONObject run() throws Exception;
    }

    private JSONObject result(Step step, SignInSession s) throws Exception {
        JSONObject out;
        try {
            out = step.run();
        } catch (SignInException e) {
            out = new JSONObject().put("error", e.code() != null ? e.code().value() : e.kind().name())
                    .put("kind", e.kind().name()).put("status", e.httpStatus()).put("recommendation", e.recommendation().name())
                    .put("notice", e.notice() != null ? e.notice().name() : JSONObject.NULL);
        }
        settle(s);
        return out.put("states", states()).put("storeExists", new File(args.get("store")).exists())
                .put("user", get(s.currentUser()) == null ? "none" : "some");
    }

    /** Waits (bounded) until the listener has heard the session's current state. */
    private void settle(SignInSession s) throws Exception {
        CompletableFuture<String> now = new CompletableFuture<>();
        dev.signinbackend.client.ListenerRegistration probe = s.addAuthStateListener(st -> now.complete(kind(st.toString())));
        String current = now.get(10, TimeUnit.SECONDS);
        probe.remove();
        for (int i = 0; i < 1_000; i++) {
            synchronized (states) {
                if (!states.isEmpty() && kind(states.get(states.size() - 1)).equals(current)) {
                    return;
                }
            }
            Thread.sleep(10);
        }
    }

    private static String kind(String state) {
        return state.equals("REFRESHED") ? "SIGNED_IN" : state;
    }

    private JSONArray states() {
        synchronized (states) {
            return new JSONArray(states);
        }
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        try {
            return future.get(120, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }


}

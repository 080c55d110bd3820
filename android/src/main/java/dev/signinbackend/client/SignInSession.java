package dev.signinbackend.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The app's one session object: sign-in, the account's actions, STS credentials for S3, and the
 * auth state, over one stored session. Create ONE per store and process and keep it (on Android:
 * in your {@code Application}).
 *
 * <p>Every method returns at once; the work runs on the configuration's executor and the future
 * completes on its callback executor, with a {@link SignInException} when it fails.
 *
 * <p>The refresh discipline (docs/android.md, "What the session guarantees"):
 * <ul>
 *   <li>one refresh in flight per stored session: every caller of {@link #credentials()},
 *       {@link #refresh()} and {@link #credentialsReplacing(String)} joins it; processes sharing the
 *       store take its lock and re-read it first;
 *   <li>every call that presents the refresh token runs in one lane, so none presents a token a
 *       refresh is rotating;
 *   <li>the rotated token is stored before anyone sees the new session;
 *   <li>expiry is judged on the server's clock (each answer's {@code meta.timestamp});
 *   <li>the session is cleared only on SESSION_INVALID, ACCOUNT_NOT_FOUND, ACCOUNT_DISABLED, and
 *       after a sign-out or deletion; an answer that arrives after a sign-out is dropped.
 * </ul>
 */
public final class SignInSession {
    private final SignInConfiguration config;
    private final AuthStateHub hub;
    private final SessionCore core;
    private final FunctionCalls calls;
    private final Refresher refresher;
    private final Delivery delivery;

    public SignInSession(SignInConfiguration config) {
        this.config = config;
        this.hub = new AuthStateHub(config.callbackExecutor);
        this.core = new SessionCore(config, hub);
        this.calls = new FunctionCalls(config);
        this.refresher = new Refresher(config, core, calls);
        this.delivery = new Delivery(config, refresher);
    }

    // -- auth state ------------------------------------------------------------------------------

    /** Calls {@code listener} with the stored state at once (no "signed out" flash at launch), then every change. */
    public ListenerRegistration addAuthStateListener(AuthStateListener listener) {
        ListenerRegistration[] registration = new ListenerRegistration[1];
        boolean[] removed = new boolean[1];
        delivery.run("listen", () -> {
            synchronized (core) {
                AuthState state = core.currentState();
                synchronized (registration) {
                    if (!removed[0]) {
                        registration[0] = hub.add(listener, state);
                    }
                }
            }
            return null;
        });
        return () -> {
            synchronized (registration) {
                removed[0] = true;
                if (registration[0] != null) {
                    registration[0].remove();
                }
            }
        };
    }

    /** The signed-in user, or null when signed out (or while the store cannot be read). */
    public CompletableFuture<User> currentUser() {
        return delivery.run("currentUser", () -> {
            StoredSession s = core.sessionOrNull();
            return s == null ? null : s.user;
        });
    }

    /** Where the user's files go, or null when signed out. */
    public CompletableFuture<StorageLocation> storage() {
        return delivery.run("storage", () -> {
            StoredSession s = core.sessionOrNull();
            return s == null ? null : s.storage;
        });
    }

    // -- sign-in and sign-out --------------------------------------------------------------------

    /** Signs in (or up) with a provider's ID token, intent {@link SignInIntent#AUTO}. */
    public CompletableFuture<SignInResult> signIn(Provider provider, String idToken) {
        return signIn(provider, idToken, SignInIntent.AUTO, null, null);
    }

    /**
     * Signs in (or up) with a provider's ID token. Pass the raw nonce you gave the provider (for
     * Apple's web flow: {@link AppleAuthorizationRequest#rawNonce}) and, on Apple's first sign-in,
     * the name Apple sent. The new session replaces any other.
     */
    public CompletableFuture<SignInResult> signIn(Provider provider, String idToken, SignInIntent intent,
            String nonce, String fullName) {
        return delivery.run("signin", () -> {
            long asked = core.userChoice();
            Envelope answer = calls.call(SignInFunction.SIGN_IN, "signin", FunctionCalls.request("provider",
                    provider.wireName(), "idToken", idToken, "intent", intent.wireName(), "nonce", nonce, "fullName",
                    fullName, "device", config.device));
            boolean isNewUser = answer.data.bool("isNewUser");
            StoredSession next = StoredSession.fromAnswer(answer, config.clock.wallMillis(), provider, -1, 0);
            StoreLock held = delivery.lockStore("signin");  // other processes never see half a change
            try {
                core.commitSignIn(asked, next);
            } finally {
                held.close();
            }
            return new SignInResult(isNewUser, next.user, next.storage);
        });
    }

    /**
     * Signs in with Apple's web flow: {@code apple}'s ID token, always with {@code request}'s raw
     * nonce (the server requires it for an ID token minted for a Services ID) and the name Apple
     * sent on the first sign-in. Keep that name until this succeeds: Apple sends it only once.
     */
    public CompletableFuture<SignInResult> signInWithApple(AppleAuthorizationRequest request, AppleWebReturn apple) {
        return signIn(Provider.APPLE, apple.idToken, SignInIntent.AUTO, request.rawNonce, apple.fullName);
    }

    /**
     * Signs out here at once (SIGNED_OUT(USER_SIGNED_OUT)), removes the store under its lock, then
     * tells the server with the token the store held (a just-rotated one too: the server's signout
     * takes it). Completes with whether the server confirmed (false offline, or with nothing to
     * present: the session then expires there).
     */
    public CompletableFuture<Boolean> signOut() {
        return delivery.run("signout", () -> {
            StoredSession held;
            long choice;
            synchronized (core) {
                core.sessionOrNull();  // an unreadable store is cleared too: the user asked to be out
                held = core.beginSignOut();
                choice = core.userChoice();
            }
            StoreLock lock;
            try {
                lock = delivery.lockStore("signout");
            } catch (SignInException e) {
                lock = StoreLock.NONE;  // the user asked to be out: remove it unlocked rather than not at all
            }
            String token;
            try {
                token = core.finishSignOut(held, choice);
            } finally {
                lock.close();
            }
            if (token == null) {
                return false;
            }
            try {
                Envelope answer = calls.call(SignInFunction.REFRESH, "signout",
                        FunctionCalls.request("refreshToken", token, "action", "signout"));
                return answer.data.bool("signedOut");
            } catch (SignInException e) {
                return false;
            }
        });
    }

    // -- credentials and refresh -----------------------------------------------------------------

    /**
     * The STS credentials for the user's prefix, refreshed first (joining a refresh under way) when
     * they expire within the margin by the server's clock. A cached read otherwise: call it for
     * every S3 request.
     */
    public CompletableFuture<TemporaryCredentials> credentials() {
        return validSession("credentials", false, null).thenApply(s -> s.credentials);
    }

    /**
     * For S3's {@code ExpiredToken} (a suspended app, a wrong clock): refreshes unless the session
     * already holds credentials other than {@code expiredAccessKeyId}; many failing uploads make one
     * refresh. Retry the request once with what this returns.
     */
    public CompletableFuture<TemporaryCredentials> credentialsReplacing(String expiredAccessKeyId) {
        return validSession("credentials", true, expiredAccessKeyId).thenApply(s -> s.credentials);
    }

    /**
     * {@code serverTimeMillis} (a time on the server's clock, such as
     * {@link TemporaryCredentials#expirationMillis}) on this device's clock, by the offset measured
     * at the last answer. For code that judges expiry with the device's clock: aws-sdk-kotlin's
     * {@code Credentials.expiration} (docs/android/SignInCredentialsProvider.kt), or a comparison
     * with {@code System.currentTimeMillis()}. Reads no file: call it after {@link #credentials()}.
     */
    public long deviceTimeMillis(long serverTimeMillis) {
        return core.deviceTime(serverTimeMillis);
    }

    /** Refreshes now (joining a refresh under way), whatever the credentials' expiry. */
    public CompletableFuture<User> refresh() {
        return validSession("refresh", true, null).thenApply(s -> s.user);
    }

    private CompletableFuture<StoredSession> validSession(String action, boolean force, String stale) {
        return delivery.join(action, () -> {
            RefreshFlight flight = core.flightFor(force, stale);
            if (flight.claimStart()) {
                flight.lane.submit(new RefreshJob(flight, config, core, refresher, delivery));
            }
            return flight.future;
        });
    }

    // -- calls that present the refresh token ----------------------------------------------------

    /** The account's live sessions, newest first ({@code current} marks this one). */
    public CompletableFuture<List<SessionSummary>> sessions() {
        return delivery.withToken(core, SignInFunction.REFRESH, "list",
                token -> FunctionCalls.request("refreshToken", token, "action", "list"),
                (asked, presented, data) -> {
                    if (data.raw().opt("sessions") == null) {
                        throw SignInException.malformed("list", "data.sessions", "missing");
                    }
                    List<SessionSummary> out = new ArrayList<>();
                    for (WireReader r : data.objects("sessions")) {
                        SessionSummary summary = new SessionSummary(r);
                        out.add(summary);
                        if (summary.current) {
                            core.rememberCurrentSessionId(asked, summary.sessionId);
                        }
                    }
                    return Collections.unmodifiableList(out);
                });
    }

    /** Ends every other session of the account; completes with how many. Needs a recent sign-in. */
    public CompletableFuture<Integer> signOutOtherSessions() {
        return delivery.withToken(core, SignInFunction.REFRESH, "signoutOthers",
                token -> FunctionCalls.request("refreshToken", token, "action", "signoutOthers"),
                (asked, presented, data) -> (int) data.integer("signedOut"));
    }

    /** Ends one session of the account by its {@code sessionId} (this one's: as {@link #signOut()}). */
    public CompletableFuture<Boolean> signOutSession(String sessionId) {
        return delivery.withToken(core, SignInFunction.REFRESH, "signoutSession",
                token -> FunctionCalls.request("refreshToken", token, "action", "signoutSession", "sessionId", sessionId),
                (asked, presented, data) -> {
                    boolean done = data.bool("signedOut");
                    if (core.isCurrentSessionId(sessionId)) {
                        core.endIfCurrent(asked, SignOutReason.USER_SIGNED_OUT);
                    }
                    return done;
                });
    }

    /** Links a second provider. Needs a recent sign-in (REAUTHENTICATE_THEN_RETRY otherwise). */
    public CompletableFuture<LinkResult> link(Provider provider, String idToken, String nonce) {
        return delivery.withToken(core, SignInFunction.LINK, "link",
                token -> FunctionCalls.request("refreshToken", token, "action", "link", "provider", provider.wireName(),
                        "idToken", idToken, "nonce", nonce),
                (asked, presented, data) -> {
                    LinkResult result = new LinkResult(data);
                    core.updateUser(asked, result.user);
                    return result;
                });
    }

    /**
     * Unlinks a provider. Unlinking the one this session signed in with ends this session
     * (SIGNED_OUT(SIGN_IN_IDENTITY_UNLINKED)): the server ends every session of that identity.
     */
    public CompletableFuture<LinkResult> unlink(Provider provider) {
        return delivery.withToken(core, SignInFunction.LINK, "unlink",
                token -> FunctionCalls.request("refreshToken", token, "action", "unlink", "provider", provider.wireName()),
                (asked, presented, data) -> {
                    LinkResult result = new LinkResult(data);
                    if (presented.signInProvider == provider) {
                        core.endIfCurrent(asked, SignOutReason.SIGN_IN_IDENTITY_UNLINKED);
                    } else {
                        core.updateUser(asked, result.user);
                    }
                    return result;
                });
    }

    /**
     * Deletes the account ({@code appleAuthorizationCode}: from a fresh Sign in with Apple, so the
     * server can revoke Apple's tokens; may be null). Ends the session: SIGNED_OUT(ACCOUNT_DELETED).
     * Tell the user that an App Store or Play subscription is not cancelled by this.
     */
    public CompletableFuture<DeletionResult> deleteAccount(String appleAuthorizationCode) {
        return delivery.withToken(core, SignInFunction.LINK, "delete",
                token -> FunctionCalls.request("refreshToken", token, "action", "delete", "authorizationCode",
                        appleAuthorizationCode),
                (asked, presented, data) -> {
                    DeletionResult result = new DeletionResult(data);
                    core.endIfCurrent(asked, SignOutReason.ACCOUNT_DELETED);
                    return result;
                });
    }

    /** Ties an App Store purchase (StoreKit 2's signed transaction) to the account. */
    public CompletableFuture<PurchaseClaimResult> claimPurchase(String signedTransaction) {
        return delivery.withToken(core, SignInFunction.LINK, "claimPurchase",
                token -> FunctionCalls.request("refreshToken", token, "action", "claimPurchase", "signedTransaction",
                        signedTransaction),
                (asked, presented, data) -> {
                    PurchaseClaimResult result = new PurchaseClaimResult(data);
                    core.updateUser(asked, result.user);
                    return result;
                });
    }
}

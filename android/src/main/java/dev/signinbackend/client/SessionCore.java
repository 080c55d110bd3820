package dev.signinbackend.client;

/**
 * The session's state and every decision that depends on it, under one lock (this object's
 * monitor). Network calls never run under it. Lock order: the store's lock
 * ({@link SessionStore#lock()}) before this monitor, never the reverse.
 *
 * <p>{@code generation} grows at every sign-in, sign-out and end of session: an answer to a call
 * made under an older generation is dropped ({@link FailureKind#SESSION_CHANGED}), success or
 * error, so a late refresh can neither resurrect a signed-out session nor sign out the next user.
 */
final class SessionCore {
    enum Load { NOT_LOADED, ABSENT, LOADED, UNREADABLE }

    private final SignInConfiguration config;
    private final AuthStateHub hub;

    private StoredSession session;
    private Load load = Load.NOT_LOADED;
    private String unreadableDetail;
    /** Why there is no session, as {@link #currentState()} reports it (KEY_LOST after a lost key, until a sign-in). */
    private SignOutReason absentReason = SignOutReason.NO_SESSION;
    private long generation;
    /** Grows at every sign-out and committed sign-in: a sign-in that started before is dropped. */
    private long userChoice;
    /** Guarded by this monitor too. */
    private final StoreWriter writer;
    private SerialLane lane;
    private RefreshFlight flight;
    private String currentSessionId;
    /** Set by {@link #beginSignOut()}: this process owed the store a newer state than it holds. */
    private boolean signingOutFromMemory;

    SessionCore(SignInConfiguration config, AuthStateHub hub) {
        this.config = config;
        this.hub = hub;
        this.lane = new SerialLane(config.executor);
        this.writer = new StoreWriter(config, this);
    }

    // -- reading ---------------------------------------------------------------------------------

    /**
     * Reads the store: once when it holds a session; again at every call while it held none (another
     * process may have signed in) or could not be read (its key may be back). A read that fails
     * leaves the state unknown: it never counts as "signed out" and never clears anything.
     */
    synchronized void loadIfNeeded() throws SignInException {
        if (load == Load.LOADED || writer.owes()) {
            return;
        }
        StoredSession found;
        try {
            byte[] data = config.store.load();
            found = data == null ? null : StoredSession.decode(data);
        } catch (SessionStoreException e) {
            if (e.isKeyLost()) {
                keyLost();
                return;
            }
            load = Load.UNREADABLE;
            unreadableDetail = e.getMessage();
            throw SignInException.of(FailureKind.STORE_UNREADABLE, "load", e.getMessage());
        }
        boolean rediscovered = load == Load.ABSENT || load == Load.UNREADABLE;
        session = found;
        load = found == null ? Load.ABSENT : Load.LOADED;
        if (found != null && rediscovered) {
            hub.publish(AuthState.signedIn(found.user));
        }
    }

    synchronized AuthState currentState() {
        try {
            loadIfNeeded();
        } catch (SignInException e) {
            return AuthState.unknown(unreadableDetail);
        }
        return session != null ? AuthState.signedIn(session.user) : AuthState.signedOut(absentReason);
    }

    /**
     * The store holds a session that can never be read again (its key is gone for good): it is
     * removed and the session ends, SIGNED_OUT(KEY_LOST), once; then "no session" like any other.
     */
    private void keyLost() {
        boolean wasKnown = load != Load.ABSENT || session != null;
        end(SignOutReason.KEY_LOST);
        if (wasKnown) {
            absentReason = SignOutReason.KEY_LOST;  // what a listener added now hears
        }
    }

    /** The loaded session, or NOT_SIGNED_IN; retries an owed store write first. */
    synchronized StoredSession requireSession(String action) throws SignInException {
        flushOwedWrite();
        loadIfNeeded();
        if (session == null) {
            throw SignInException.of(FailureKind.NOT_SIGNED_IN, action, "sign in first");
        }
        return session;
    }

    synchronized StoredSession sessionOrNull() {
        try {
            loadIfNeeded();
        } catch (SignInException e) {
            return null;
        }
        return session;
    }

    synchronized long generation() {
        return generation;
    }

    synchronized long userChoice() {
        return userChoice;
    }

    synchronized SerialLane lane() {
        return lane;
    }

    synchronized void checkGeneration(long asked, String action) throws SignInException {
        if (asked != generation) {
            throw SignInException.of(FailureKind.SESSION_CHANGED, action, "answer dropped");
        }
    }

    // -- the refresh flight ----------------------------------------------------------------------

    /**
     * The refresh to join: the one under way for this generation, a new one when the credentials
     * expire within the margin (or {@code force}), or a finished one holding the session as it is.
     * A new flight's creator starts it ({@link RefreshFlight#claimStart()}) after leaving this lock.
     */
    synchronized RefreshFlight flightFor(boolean force, String staleAccessKeyId) throws SignInException {
        StoredSession s = requireSession("credentials");
        if (flight != null && flight.generation == generation) {
            return flight;
        }
        if (staleAccessKeyId != null && !s.credentials.accessKeyId.equals(staleAccessKeyId)) {
            return RefreshFlight.done(s);  // already replaced: the caller retries with these
        }
        if (!force && !needsRefresh(s) && !isUnsettled(s)) {
            return RefreshFlight.done(s);
        }
        flight = new RefreshFlight(generation, force, staleAccessKeyId, s.rotation, lane);
        return flight;
    }

    synchronized void flightEnded(RefreshFlight ended) {
        if (flight == ended) {
            flight = null;
        }
    }

    /**
     * Whether {@code s}'s credentials expire within the margin, judged on the server's clock. Never
     * within {@code minimumRefreshInterval} of the last answer, whatever the clocks say (one more
     * rotation would not make the credentials any newer: credentials that arrive expired must not
     * turn into a refresh at every call); a device clock gone back since then does not count as
     * recent. The Swift client's {@code needsRefresh}, rule for rule.
     */
    boolean needsRefresh(StoredSession s) {
        long serverNow = s.serverNow(config.clock.wallMillis());
        long sinceReceived = serverNow - s.receivedAtMillis;
        if (sinceReceived >= 0 && sinceReceived < config.minimumRefreshIntervalMillis) {
            return false;
        }
        return s.credentials.expirationMillis - serverNow <= config.credentialsMarginMillis;
    }

    boolean expired(StoredSession s) {
        return s.credentials.expirationMillis <= s.serverNow(config.clock.wallMillis());
    }

    // -- a refresh that may have rotated the token without our reading the answer ---------------

    /** {@code serverTimeMillis} on this device's clock, by the offset measured at the last answer (none: unchanged). */
    synchronized long deviceTime(long serverTimeMillis) {
        return session == null ? serverTimeMillis : serverTimeMillis - session.serverOffsetMillis;
    }

    /**
     * A marked token (a refresh of it may have rotated it unread) is settled at the next call that
     * needs credentials: the same token, a new answer (contract v5: the server takes it for as long
     * as its successor was never presented, however late). Only a process that refreshes settles.
     */
    boolean isUnsettled(StoredSession s) {
        return config.refreshPolicy == RefreshPolicy.REFRESHES && s.isUnanswered();
    }

    /**
     * Writes the durable "in flight" mark before a refresh leaves: if this process dies while the
     * request is out (swiped from Recents, a low-memory kill), the next launch and the other
     * processes know the token may have rotated. A mark that cannot be written sends nothing
     * (STORE_UNREADABLE). Returns the session to present.
     */
    synchronized StoredSession markInFlight(long asked) throws SignInException {
        StoredSession s = requirePresentable(asked, "refresh");
        if (s.isUnanswered() && !writer.owes()) {
            return s;  // already on disk
        }
        StoredSession marked = s.isUnanswered() ? s : s.withUnansweredSince(config.clock.wallMillis());
        if (!writer.writeNow(marked)) {
            throw SignInException.of(FailureKind.STORE_UNREADABLE, "refresh",
                    "the in-flight mark could not be stored, so nothing was sent");
        }
        session = marked;
        return marked;
    }

    /**
     * Takes the mark off again after a call none of whose attempts can have reached the function
     * (OFFLINE, 429, 503...): nothing rotated. Best effort: a mark left behind costs one settling refresh.
     */
    synchronized void clearMark(long asked, String token) {
        if (asked != generation || session == null || !session.refreshToken.equals(token) || !session.isUnanswered()) {
            return;
        }
        StoredSession cleared = session.withUnansweredSince(StoredSession.NOT_UNANSWERED);
        if (writer.writeNow(cleared)) {
            session = cleared;
        }
    }

    /** The session to present, unless the session changed or ended since {@code asked}. */
    synchronized StoredSession requirePresentable(long asked, String action) throws SignInException {
        checkGeneration(asked, action);
        if (session == null) {
            throw SignInException.of(FailureKind.NOT_SIGNED_IN, action, "sign in first");
        }
        return session;
    }

    // -- the store as the source of truth between processes ------------------------------------

    /**
     * Called under the store's lock before a call presents the token: when this process owes the
     * store no write, what the store holds wins (another process may have rotated the token,
     * signed out, or signed in anew). Returns the session to present.
     */
    synchronized StoredSession reconcile(long asked, String action) throws SignInException {
        checkGeneration(asked, action);
        if (session == null) {
            throw SignInException.of(FailureKind.NOT_SIGNED_IN, action, "sign in first");
        }
        if (writer.owes()) {
            return session;
        }
        StoredSession stored;
        try {
            byte[] data = config.store.load();
            if (data == null) {
                end(SignOutReason.USER_SIGNED_OUT);
                throw SignInException.of(FailureKind.SESSION_CHANGED, action, "another process signed out");
            }
            stored = StoredSession.decode(data);
        } catch (SessionStoreException e) {
            if (e.isKeyLost()) {
                keyLost();
                throw SignInException.of(FailureKind.NOT_SIGNED_IN, action, "the session's key is gone: sign in again");
            }
            if (config.refreshPolicy == RefreshPolicy.READ_ONLY) {
                // It presents only the token the store holds now; its own copy may be rotated out.
                throw SignInException.of(FailureKind.STORE_UNREADABLE, action, e.getMessage());
            }
            return session;  // unreadable now: the refreshing process's copy is the best there is
        }
        if (stored.refreshToken.equals(session.refreshToken)) {
            if (stored.isUnanswered() && !session.isUnanswered()) {
                session = stored;  // another process's refresh of this token went unanswered
            }
            return session;
        }
        if (sameSignIn(stored, session)) {
            if (stored.rotation > session.rotation) {
                session = stored;
                hub.publish(AuthState.refreshed(stored.user));
            } else {
                persist(session);  // the store is behind this process: put it right
            }
            return session;
        }
        if (stored.signedInAtMillis > session.signedInAtMillis) {
            begin(stored, false);
            throw SignInException.of(FailureKind.SESSION_CHANGED, action, "another process signed in");
        }
        persist(session);
        return session;
    }

    private static boolean sameSignIn(StoredSession a, StoredSession b) {
        return a.user.serviceUserID.equals(b.user.serviceUserID) && a.signedInAtMillis == b.signedInAtMillis
                && a.signInProvider == b.signInProvider;
    }

    // -- changes ---------------------------------------------------------------------------------

    /**
     * A refresh's answer: dropped when the session changed meanwhile; else stored, then published.
     * The rotated token is on disk before anything presents it: a store that cannot be written keeps
     * the old, marked token (the server still takes it: its successor is never presented) and the
     * call fails with STORE_UNREADABLE, never a token in memory only that a kill would lose.
     */
    synchronized StoredSession commitRefresh(long asked, StoredSession next) throws SignInException {
        checkGeneration(asked, "refresh");
        if (!writer.writeNow(next)) {
            throw SignInException.of(FailureKind.STORE_UNREADABLE, "refresh",
                    "the refreshed session could not be stored; the old token is kept and the next call retries");
        }
        session = next;
        load = Load.LOADED;
        hub.publish(AuthState.refreshed(next.user));
        return next;
    }

    /** A sign-in's answer: dropped when the user signed out or signed in again meanwhile. */
    synchronized void commitSignIn(long askedChoice, StoredSession next) throws SignInException {
        if (askedChoice != userChoice) {
            throw SignInException.of(FailureKind.SESSION_CHANGED, "signin", "signed out or in meanwhile");
        }
        begin(next, true);
    }

    private void begin(StoredSession next, boolean write) {
        absentReason = SignOutReason.NO_SESSION;
        generation++;
        userChoice++;
        flight = null;
        lane = new SerialLane(config.executor);
        currentSessionId = null;
        session = next;
        load = Load.LOADED;
        if (write) {
            persist(next);
        }
        hub.publish(AuthState.signedIn(next.user));
    }

    synchronized void updateUser(long asked, User user) {
        if (asked != generation || session == null) {
            return;
        }
        session = session.withUser(user);
        persist(session);
    }

    /** Ends the session here: a new generation, nothing stored, then SIGNED_OUT(reason). Returns the token it held. */
    synchronized String end(SignOutReason reason) {
        String token = endInMemory(reason);
        persist(null);
        return token;
    }

    private String endInMemory(SignOutReason reason) {
        String token = session == null ? null : session.refreshToken;
        generation++;
        if (reason == SignOutReason.USER_SIGNED_OUT) {
            userChoice++;
        }
        flight = null;
        lane = new SerialLane(config.executor);
        currentSessionId = null;
        session = null;
        load = Load.ABSENT;
        hub.publish(AuthState.signedOut(reason));
        return token;
    }

    /**
     * Sign-out's first step, at once (a refresh this process has in flight is not waited for: its
     * answer is dropped): SIGNED_OUT(USER_SIGNED_OUT), the store's removal owed until
     * {@link #finishSignOut} runs under the store's lock (owed, so nothing re-reads the store
     * meanwhile). Returns the session held, or null.
     */
    synchronized StoredSession beginSignOut() {
        StoredSession held = session;
        signingOutFromMemory = writer.owes();  // memory newer than the store: its token is the one
        endInMemory(SignOutReason.USER_SIGNED_OUT);
        writer.oweRemoval();
        return held;
    }

    /**
     * Sign-out's second step, under the store's lock: removes the store (unless a sign-in came
     * since {@code choice}) and returns the token to tell the server, or null when there is none to
     * present: none was held, or the store holds another sign-in or none (another process signed out
     * or in; this copy is stale). The token is the store's when it holds a later rotation of this
     * sign-in. A just-rotated token is fine: the server's signout takes it (contract v5).
     */
    synchronized String finishSignOut(StoredSession held, long choice) {
        StoredSession s = held;
        if (s != null && !signingOutFromMemory) {
            try {
                byte[] data = config.store.load();
                StoredSession stored = data == null ? null : StoredSession.decode(data);
                if (stored == null || !sameSignIn(stored, s)) {
                    s = null;
                } else if (stored.rotation > s.rotation || stored.isUnanswered() && !s.isUnanswered()) {
                    s = stored;
                }
            } catch (SessionStoreException e) {
                // Unreadable: this process's copy is the best there is.
            }
        }
        if (choice == userChoice) {
            persist(null);
        }
        return s == null ? null : s.refreshToken;
    }

    /**
     * A definitive answer to {@code presented}: ends the session, unless the session changed
     * meanwhile or the store now holds another token (another process rotated it): an answer about
     * a token the store no longer holds never clears the store.
     */
    synchronized void endIfStillHeld(long asked, String presented, SignOutReason reason) {
        if (asked != generation || session == null || !session.refreshToken.equals(presented)) {
            return;
        }
        if (!writer.owes()) {
            try {
                byte[] data = config.store.load();
                StoredSession stored = data == null ? null : StoredSession.decode(data);
                if (stored != null && !stored.refreshToken.equals(presented)) {
                    return;  // the next call reconciles with what the store holds
                }
            } catch (SessionStoreException e) {
                // Unreadable: the answer is about the token this process holds, which is what ends.
            }
        }
        end(reason);
    }

    /** Ends the session unless it changed since {@code asked} (after delete, or an unlink of the sign-in identity). */
    synchronized void endIfCurrent(long asked, SignOutReason reason) {
        if (asked == generation && session != null) {
            end(reason);
        }
    }

    synchronized void rememberCurrentSessionId(long asked, String sessionId) {
        if (asked == generation) {
            currentSessionId = sessionId;
        }
    }

    synchronized boolean isCurrentSessionId(String sessionId) {
        return sessionId != null && sessionId.equals(currentSessionId);
    }

    // -- the store -------------------------------------------------------------------------------

    private void persist(StoredSession next) {
        writer.write(next);
    }

    /** Retries an owed store write now; every call starts with it. */
    synchronized void flushOwedWrite() {
        if (writer.owes()) {
            writer.write(writer.owesRemoval() ? null : session);
        }
    }

    synchronized boolean owesStore() {
        return writer.owes();
    }
}

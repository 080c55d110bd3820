package dev.signinbackend.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.json.JSONObject;

/**
 * How the session's work runs and answers: blocking work on the executor, futures completed on
 * the callback executor, and the calls that present the refresh token queued in the session's lane
 * under the store's lock.
 */
final class Delivery {
    /** Blocking work that answers or fails. */
    interface Work<T> {
        T run() throws SignInException;
    }

    /** Work that hands back a future to relay (a refresh flight). */
    interface AsyncWork<T> {
        CompletableFuture<T> start() throws SignInException;
    }

    /** The request for the token the call will present. */
    interface RequestFor {
        JSONObject request(String token);
    }

    /** Reads the answer's {@code data} (and applies it to the session) for the generation that asked. */
    interface AnswerFor<T> {
        T read(long asked, StoredSession presented, WireReader data) throws SignInException;
    }

    private final SignInConfiguration config;
    private final Refresher refresher;

    Delivery(SignInConfiguration config, Refresher refresher) {
        this.config = config;
        this.refresher = refresher;
    }

    <T> CompletableFuture<T> run(String action, Work<T> work) {
        CompletableFuture<T> out = new CompletableFuture<>();
        execute(out, action, () -> {
            try {
                complete(out, work.run());
            } catch (SignInException | RuntimeException e) {
                fail(out, e);
            }
        });
        return out;
    }

    <T> CompletableFuture<T> join(String action, AsyncWork<T> work) {
        CompletableFuture<T> out = new CompletableFuture<>();
        execute(out, action, () -> {
            try {
                work.start().whenComplete((value, error) -> {
                    if (error != null) {
                        fail(out, error);
                    } else {
                        complete(out, value);
                    }
                });
            } catch (SignInException | RuntimeException e) {
                fail(out, e);
            }
        });
        return out;
    }

    /**
     * A call that presents the session's refresh token: queued in the session's lane (after every
     * earlier such call), run under the store's lock with the token the store holds now, its answer
     * dropped if the session changed meanwhile, and the session ended on a definitive answer about
     * the token it presented (still under the lock: the store cannot change between the check that
     * it still holds that token and its removal). A token whose refresh answer was never read is
     * settled first (the server takes only the current token for these calls), however late; a
     * read-only process leaves that to the main process. SESSION_INVALID is confirmed by one
     * refresh before it ends anything (a process that refreshes only), and the call retried once.
     */
    <T> CompletableFuture<T> withToken(SessionCore core, SignInFunction function, String action,
            RequestFor request, AnswerFor<T> answer) {
        CompletableFuture<T> out = new CompletableFuture<>();
        FunctionCalls calls = new FunctionCalls(config);
        execute(out, action, () -> {
            long asked;
            SerialLane lane;
            try {
                synchronized (core) {
                    core.requireSession(action);
                    asked = core.generation();
                    lane = core.lane();
                }
            } catch (SignInException e) {
                fail(out, e);
                return;
            }
            lane.submit(new SerialLane.Job() {
                @Override
                public void run() {
                    try {
                        StoreLock held = lockStore(action);
                        try {
                            StoredSession presented = settled(core, asked, core.reconcile(asked, action), action);
                            Envelope envelope;
                            try {
                                envelope = calls.call(function, action, request.request(presented.refreshToken));
                            } catch (SignInException e) {
                                if (!confirmsFirst(e)) {
                                    endOnDefinitive(core, asked, presented, e);
                                    throw e;
                                }
                                // SESSION_INVALID to another action: this process may only have been
                                // behind (a token whose refresh it never heard of). One refresh tells;
                                // it ends the session itself if the server refuses it too.
                                core.checkGeneration(asked, action);
                                presented = refresher.refresh(presented, asked);
                                try {
                                    envelope = calls.call(function, action, request.request(presented.refreshToken));
                                } catch (SignInException again) {
                                    endOnDefinitive(core, asked, presented, again);
                                    throw again;
                                }
                            }
                            core.checkGeneration(asked, action);
                            complete(out, answer.read(asked, presented, envelope.data));
                        } finally {
                            held.close();
                        }
                    } catch (SignInException | RuntimeException e) {
                        fail(out, e);
                    }
                }

                @Override
                public void abandon(RejectedExecutionException reason) {
                    fail(out, SignInException.of(FailureKind.CANCELLED, action, "executor refused"));
                }
            });
        });
        return out;
    }

    /** Whether a failure is SESSION_INVALID that this process confirms with one refresh before ending the session. */
    private boolean confirmsFirst(SignInException e) {
        return config.refreshPolicy == RefreshPolicy.REFRESHES && e.endsSession()
                && ErrorCode.SESSION_INVALID.equals(e.code());
    }

    private static void endOnDefinitive(SessionCore core, long asked, StoredSession presented, SignInException e) {
        if (e.endsSession()) {
            core.endIfStillHeld(asked, presented.refreshToken, SignOutReason.of(e.code()));
        }
    }

    /** {@code s}, or its settled successor when a refresh of its token went unanswered. */
    private StoredSession settled(SessionCore core, long asked, StoredSession s, String action) throws SignInException {
        if (!s.isUnanswered()) {
            return s;
        }
        if (config.refreshPolicy == RefreshPolicy.READ_ONLY) {
            throw SignInException.of(FailureKind.REFRESH_NOT_ALLOWED, action,
                    "the main process is settling a refresh whose answer it never read");
        }
        return refresher.refresh(s, asked);
    }

    StoreLock lockStore(String action) throws SignInException {
        try {
            return config.store.lock();
        } catch (SessionStoreException e) {
            throw SignInException.of(FailureKind.STORE_UNREADABLE, action, e.getMessage());
        }
    }

    private void execute(CompletableFuture<?> out, String action, Runnable task) {
        try {
            config.executor.execute(task);
        } catch (RejectedExecutionException e) {
            out.completeExceptionally(SignInException.of(FailureKind.CANCELLED, action, "executor refused"));
        }
    }

    <T> void complete(CompletableFuture<T> out, T value) {
        try {
            config.callbackExecutor.execute(() -> out.complete(value));
        } catch (RejectedExecutionException e) {
            out.complete(value);
        }
    }

    void fail(CompletableFuture<?> out, Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        try {
            config.callbackExecutor.execute(() -> out.completeExceptionally(cause));
        } catch (RejectedExecutionException e) {
            out.completeExceptionally(cause);
        }
    }
}

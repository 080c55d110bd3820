package dev.signinbackend.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/** The auth-state listeners: each hears the state it registered in, then every change, in order. */
final class AuthStateHub {
    private final Executor callbackExecutor;
    private final List<Subscriber> subscribers = new ArrayList<>();

    AuthStateHub(Executor callbackExecutor) {
        this.callbackExecutor = callbackExecutor;
    }

    /** Registers {@code listener}; {@code current} is its first state, queued before any later change. */
    ListenerRegistration add(AuthStateListener listener, AuthState current) {
        Subscriber subscriber = new Subscriber(listener, new SerialLane(callbackExecutor));
        synchronized (this) {
            subscribers.add(subscriber);
            subscriber.deliver(current);
        }
        return () -> {
            subscriber.active = false;
            synchronized (this) {
                subscribers.remove(subscriber);
            }
        };
    }

    /** Queues {@code state} for every listener (the caller holds the session's lock, so states queue in order). */
    synchronized void publish(AuthState state) {
        for (Subscriber s : subscribers) {
            s.deliver(state);
        }
    }

    private static final class Subscriber {
        final AuthStateListener listener;
        final SerialLane lane;
        volatile boolean active = true;

        Subscriber(AuthStateListener listener, SerialLane lane) {
            this.listener = listener;
            this.lane = lane;
        }

        void deliver(AuthState state) {
            lane.submit(() -> {
                if (active) {
                    listener.onAuthState(state);
                }
            });
        }
    }
}

package dev.signinbackend.client;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs submitted jobs one after another, in order, on an executor (one job per
 * {@code execute}, so a long lane never starves the pool's other work). The session's calls that
 * present the refresh token run in one lane, so a list or link never presents a token a refresh is
 * rotating; each auth-state listener has one, so it hears states in order.
 */
final class SerialLane {
    /** A unit of work; {@link #abandon} runs instead when the executor refuses it. */
    interface Job {
        void run();

        void abandon(RejectedExecutionException reason);
    }

    private final Executor executor;
    private final ArrayDeque<Job> queue = new ArrayDeque<>();
    private boolean running;

    SerialLane(Executor executor) {
        this.executor = executor;
    }

    void submit(Job job) {
        synchronized (this) {
            queue.add(job);
            if (running) {
                return;
            }
            running = true;
        }
        scheduleNext();
    }

    void submit(Runnable runnable) {
        submit(new Job() {
            @Override
            public void run() {
                runnable.run();
            }

            @Override
            public void abandon(RejectedExecutionException reason) {
                // Nothing waits on a plain runnable.
            }
        });
    }

    private void scheduleNext() {
        try {
            executor.execute(this::runOne);
        } catch (RejectedExecutionException e) {
            Job job;
            while ((job = take()) != null) {
                job.abandon(e);
            }
        }
    }

    private Job take() {
        synchronized (this) {
            Job job = queue.poll();
            if (job == null) {
                running = false;
            }
            return job;
        }
    }

    private void runOne() {
        Job job = take();
        if (job == null) {
            return;
        }
        try {
            job.run();
        } finally {
            boolean more;
            synchronized (this) {
                more = !queue.isEmpty();
                if (!more) {
                    running = false;
                }
            }
            if (more) {
                scheduleNext();
            }
        }
    }
}

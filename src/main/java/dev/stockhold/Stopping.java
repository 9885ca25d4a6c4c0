package dev.stockhold;

import java.util.function.IntSupplier;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;

/**
 * Whether this process has begun to stop: from SIGTERM on (the start of the shutdown delay, or the shutdown itself
 * when there is no delay). Background jobs that work batch by batch drain through {@link #drain}, which takes no
 * further batch once it is set, so a job with a long backlog (expiry after an outage, a retention purge) ends with the
 * batch in hand while the pool is still open, instead of running on into a closed session and failing at every
 * rollout.
 */
@ApplicationScoped
public class Stopping {

    private volatile boolean requested;

    void onShutdownDelay(@Observes ShutdownDelayInitiatedEvent event) {
        requested = true;
    }

    /** Before the other shutdown observers: the relay's hand-back and the pool's close come after. */
    void onShutdown(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        requested = true;
    }

    public boolean requested() {
        return requested;
    }

    /**
     * {@link Batches#drain} until this process begins to stop: the batch in hand is finished, no further one is taken.
     * @return the total the batches processed
     */
    public int drain(int batchSize, IntSupplier batch) {
        return Batches.drain(batchSize, this::requested, batch);
    }

    /** For tests, which stop and resume one running application. */
    void resume() {
        requested = false;
    }
}

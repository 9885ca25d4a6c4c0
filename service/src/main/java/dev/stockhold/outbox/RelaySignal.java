package dev.stockhold.outbox;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

/** Wakes the local relay right after a commit wrote outbox rows, so events leave without waiting for the poll. */
@ApplicationScoped
public class RelaySignal {

    private final Semaphore nudges = new Semaphore(0);

    public void nudge() {
        if (nudges.availablePermits() == 0) {
            nudges.release();
        }
    }

    /**
     * Waits for a nudge or the poll interval, whichever comes first; after a nudge, waits {@code coalesce} more so
     * the commits of concurrent requests are claimed as one batch.
     */
    void await(Duration pollInterval, Duration coalesce) throws InterruptedException {
        if (nudges.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS) && !coalesce.isZero()) {
            Thread.sleep(coalesce.toMillis());
        }
        nudges.drainPermits();
    }
}

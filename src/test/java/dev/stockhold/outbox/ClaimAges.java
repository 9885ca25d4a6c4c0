package dev.stockhold.outbox;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.stockhold.support.Db;

/**
 * Watches, every 20 ms from {@link #watch} until {@link #oldest}, how long the oldest claim of a tenant's unpublished
 * events has been held: a relay that keeps a claim it cannot publish until its lease runs out shows the lease's age.
 */
final class ClaimAges {

    /** The oldest claim's age in ms (-1: none held): its lease's start is {@code locked_until} less the lease. */
    private static final String CLAIM_AGE = "SELECT coalesce(max((extract(epoch FROM now() - locked_until) * 1000)::bigint + ?), -1)"
            + " FROM outbox_events WHERE tenant_id = ? AND status = 'PENDING' AND locked_by IS NOT NULL";

    private final AtomicBoolean stop = new AtomicBoolean();
    private final CompletableFuture<Long> oldest;

    private ClaimAges(Db db, String tenant, Duration lease) {
        oldest = CompletableFuture.supplyAsync(() -> {
            long age = -1;
            while (!stop.get()) {
                age = Math.max(age, db.queryLong(CLAIM_AGE, lease.toMillis(), tenant));
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return age;
        });
    }

    static ClaimAges watch(Db db, String tenant, Duration lease) {
        return new ClaimAges(db, tenant, lease);
    }

    /** Stops watching: the oldest age seen, in ms (-1: no claim was ever held). */
    long oldest() throws Exception {
        stop.set(true);
        return oldest.get(10, TimeUnit.SECONDS);
    }

    /** Stops watching without a result (for a finally block). */
    void stop() {
        stop.set(true);
    }
}

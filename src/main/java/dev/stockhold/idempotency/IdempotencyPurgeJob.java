package dev.stockhold.idempotency;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.DatabaseFailures;
import dev.stockhold.StockholdConfig;
import dev.stockhold.Stopping;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;

/** Forgets keys older than the retention, in small batches so no transaction holds many locks. */
@ApplicationScoped
public class IdempotencyPurgeJob {

    @Inject
    IdempotencyRepository store;
    @Inject
    StockholdConfig config;
    @Inject
    Stopping stopping;
    @Inject
    java.time.Clock clock;

    @Scheduled(every = "${stockhold.idempotency.purge-interval}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void run() {
        DatabaseFailures.skipTurnWhileAway("The idempotency purge",
                () -> purgeOlderThan(clock.instant().minus(config.idempotency().retention())));
    }

    /** @return how many keys were deleted */
    public int purgeOlderThan(Instant cutoff) {
        int batch = config.idempotency().purgeBatchSize();
        int total = stopping.drain(batch, () -> store.purgeBatch(cutoff, batch));
        if (total > 0) {
            Log.infof("Purged %d idempotency keys created before %s", total, cutoff);
        }
        return total;
    }
}

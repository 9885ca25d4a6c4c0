package dev.stockhold.outbox;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.DatabaseFailures;
import dev.stockhold.StockholdConfig;
import dev.stockhold.Stopping;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;

/** Lease sweeping, retention cleanup and the backlog gauges; each safe to run on every replica. */
@ApplicationScoped
public class OutboxMaintenance {

    @Inject
    RelayStore store;
    @Inject
    OutboxBacklog backlog;
    @Inject
    Clock clock;
    @Inject
    OutboxMetrics metrics;
    @Inject
    StockholdConfig config;
    @Inject
    CommitTimes commitTimes;
    @Inject
    Stopping stopping;

    @Scheduled(every = "${stockhold.relay.lease-sweep-interval}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void sweepExpiredLeases() {
        DatabaseFailures.skipTurnWhileAway("The outbox lease sweep", this::sweep);
    }

    private void sweep() {
        int swept = store.sweepExpiredLeases();
        if (swept > 0) {
            Log.warnf("Returned %d outbox events whose relay lease expired to pending", swept);
        }
    }

    @Scheduled(every = "${stockhold.outbox.cleanup-interval}", delayed = "30s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void cleanup() {
        DatabaseFailures.skipTurnWhileAway("The outbox cleanup",
                () -> deletePublishedBefore(clock.instant().minus(config.outbox().retention())));
    }

    /** Deletes published rows in small batches so the table does not bloat and no transaction grows large. */
    public int deletePublishedBefore(Instant cutoff) {
        int batch = config.outbox().cleanupBatchSize();
        int total = stopping.drain(batch, () -> store.deletePublishedBefore(cutoff, batch));
        if (total > 0) {
            Log.infof("Deleted %d published outbox events older than %s", total, cutoff);
        }
        return total;
    }

    @Scheduled(every = "${stockhold.outbox.stats-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void refreshGauges() {
        commitTimes.forgetOlderThanMaxAge(System.nanoTime());
        DatabaseFailures.skipTurnWhileAway("The outbox gauges' refresh", () -> metrics.refresh(backlog.stats(null)));
    }
}

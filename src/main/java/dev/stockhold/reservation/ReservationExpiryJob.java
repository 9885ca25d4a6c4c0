package dev.stockhold.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.DatabaseFailures;
import dev.stockhold.StockholdConfig;
import dev.stockhold.Stopping;
import io.quarkus.scheduler.Scheduled;

/** Expires HELD reservations past {@code expiresAt}; safe with many replicas (SKIP LOCKED claims). */
@ApplicationScoped
public class ReservationExpiryJob {

    @Inject
    ReservationLifecycle lifecycle;
    @Inject
    StockholdConfig config;
    @Inject
    Stopping stopping;

    @Scheduled(every = "${stockhold.reservations.expiry-interval}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void run() {
        DatabaseFailures.skipTurnWhileAway("The reservation expiry", this::expireDue);
    }

    /** Expires batches until none is full. @return how many reservations expired */
    public int expireDue() {
        int batch = config.reservations().expiryBatchSize();
        return stopping.drain(batch, () -> lifecycle.expireBatch(batch));
    }
}

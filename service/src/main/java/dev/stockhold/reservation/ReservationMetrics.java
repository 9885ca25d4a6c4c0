package dev.stockhold.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.stockhold.AfterCommit;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * {@code stockhold_reservations_total{outcome}}, {@code stockhold_reservation_transitions_total{to}}, and the hot-sku
 * groups: {@code stockhold_reservation_groups_total} and {@code stockhold_reservations_grouped_total}.
 */
@ApplicationScoped
@Startup
public class ReservationMetrics {

    /** Outcomes of POST /v1/reservations that reached the service. */
    public enum Outcome {
        CREATED,
        REPLAYED,
        INSUFFICIENT_STOCK,
        UNKNOWN_SKU,
        KEY_REUSED,
        IN_PROGRESS,
        CAP_EXCEEDED;

        String tag() {
            return name().toLowerCase();
        }
    }

    private final MeterRegistry registry;
    private final TransactionSynchronizationRegistry transactions;

    ReservationMetrics(MeterRegistry registry, TransactionSynchronizationRegistry transactions) {
        this.registry = registry;
        this.transactions = transactions;
        for (Outcome outcome : Outcome.values()) {
            registry.counter("stockhold.reservations", "outcome", outcome.tag());
        }
        for (ReservationStatus to : ReservationStatus.values()) {
            if (to != ReservationStatus.HELD) {
                registry.counter("stockhold.reservation.transitions", "to", to.name().toLowerCase());
            }
        }
        registry.counter("stockhold.reservation.groups");
        registry.counter("stockhold.reservations.grouped");
    }

    public void outcome(Outcome outcome) {
        registry.counter("stockhold.reservations", "outcome", outcome.tag()).increment();
    }

    /** Counts a hot-sku group of {@code requests} reservations committed in one transaction. */
    public void grouped(int requests) {
        registry.counter("stockhold.reservation.groups").increment();
        registry.counter("stockhold.reservations.grouped").increment(requests);
    }

    /** Counts a transition made in the current transaction, once that transaction has committed. */
    public void transitionOnCommit(ReservationStatus to) {
        AfterCommit.run(transactions,
                () -> registry.counter("stockhold.reservation.transitions", "to", to.name().toLowerCase()).increment());
    }
}

package dev.stockhold.reservation;

import java.util.EnumMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.stockhold.AfterCommit;
import io.micrometer.core.instrument.Counter;
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
        CAP_EXCEEDED,
        UNKNOWN_CHANNEL;

        String tag() {
            return name().toLowerCase();
        }
    }

    private final TransactionSynchronizationRegistry transactions;
    /** Every counter is registered once, here, and kept: an increment looks nothing up in the registry. */
    private final Map<Outcome, Counter> outcomes = new EnumMap<>(Outcome.class);
    private final Map<ReservationStatus, Counter> transitions = new EnumMap<>(ReservationStatus.class);
    private final Counter groups;
    private final Counter grouped;
    private final Counter guessHits;
    private final Counter guessMisses;

    ReservationMetrics(MeterRegistry registry, TransactionSynchronizationRegistry transactions) {
        this.transactions = transactions;
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(outcome, registry.counter("stockhold.reservations", "outcome", outcome.tag()));
        }
        for (ReservationStatus to : ReservationStatus.values()) {
            if (to != ReservationStatus.HELD) {
                transitions.put(to, registry.counter("stockhold.reservation.transitions", "to", to.name().toLowerCase()));
            }
        }
        groups = registry.counter("stockhold.reservation.groups");
        grouped = registry.counter("stockhold.reservations.grouped");
        guessHits = registry.counter("stockhold.reservation.location.guesses", "outcome", "hit");
        guessMisses = registry.counter("stockhold.reservation.location.guesses", "outcome", "miss");
    }

    /** Counts a one-statement reservation placed on a guessed location: a miss when the guess was stale. */
    public void guessed(boolean hit) {
        (hit ? guessHits : guessMisses).increment();
    }

    public void outcome(Outcome outcome) {
        outcomes.get(outcome).increment();
    }

    /** Counts a hot-sku group of {@code requests} reservations committed in one transaction. */
    public void grouped(int requests) {
        groups.increment();
        grouped.increment(requests);
    }

    /** Counts a transition made in the current transaction, once that transaction has committed. */
    public void transitionOnCommit(ReservationStatus to) {
        Counter counter = transitions.get(to);
        AfterCommit.run(transactions, counter::increment);
    }
}

package dev.stockhold.reservation;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;

/** {@code stockhold_reservations_total{outcome}} and {@code stockhold_reservation_transitions_total{to}}. */
@ApplicationScoped
public class ReservationMetrics {

    /** Outcomes of POST /v1/reservations that reached the service. */
    public enum Outcome {
        CREATED, REPLAYED, INSUFFICIENT_STOCK, UNKNOWN_SKU, KEY_REUSED, IN_PROGRESS;

        String tag() {
            return name().toLowerCase();
        }
    }

    private final MeterRegistry registry;

    ReservationMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Outcome outcome : Outcome.values()) {
            registry.counter("stockhold.reservations", "outcome", outcome.tag());
        }
        for (ReservationStatus to : ReservationStatus.values()) {
            if (to != ReservationStatus.HELD) {
                registry.counter("stockhold.reservation.transitions", "to", to.name().toLowerCase());
            }
        }
    }

    public void outcome(Outcome outcome) {
        registry.counter("stockhold.reservations", "outcome", outcome.tag()).increment();
    }

    public void transition(ReservationStatus to, int count) {
        registry.counter("stockhold.reservation.transitions", "to", to.name().toLowerCase()).increment(count);
    }
}

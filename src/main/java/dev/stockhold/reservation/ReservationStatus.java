package dev.stockhold.reservation;

import java.util.List;

import dev.stockhold.events.EventType;

/**
 * The reservation lifecycle, written once: HELD until exactly one of confirm, cancel or expire wins, each writing the
 * event named here. A reservation with deferred fulfilment goes on from CONFIRMED (its units committed) to
 * PARTIALLY_FULFILLED and FULFILLED (no unit left committed) by fulfilments and releases. The service writes events by
 * {@link #entered()}; the chaos checker checks every reservation's events against {@link #history()}.
 */
public enum ReservationStatus {
    HELD(EventType.CREATED),
    CONFIRMED(EventType.CONFIRMED),
    CANCELLED(EventType.CANCELLED),
    EXPIRED(EventType.EXPIRED),
    PARTIALLY_FULFILLED(EventType.FULFILLED),
    FULFILLED(EventType.FULFILLED);

    private final EventType entered;

    ReservationStatus(EventType entered) {
        this.entered = entered;
    }

    /** Confirmed: sold at once, or with deferred fulfilment committed and then fulfilled or released. */
    public boolean isConfirmed() {
        return this == CONFIRMED || this == PARTIALLY_FULFILLED || this == FULFILLED;
    }

    /** The event the change into this status writes (FULFILLED: the fulfilment's or release's own event). */
    public EventType entered() {
        return entered;
    }

    /**
     * The events of a reservation in this status, in order, leaving out those that may come any number of times in
     * between: extends and edits while HELD, fulfilments and releases after a deferred confirm.
     */
    public List<EventType> history() {
        return switch (this) {
            case HELD -> List.of(EventType.CREATED);
            case CONFIRMED, PARTIALLY_FULFILLED, FULFILLED -> List.of(EventType.CREATED, EventType.CONFIRMED);
            case CANCELLED -> List.of(EventType.CREATED, EventType.CANCELLED);
            case EXPIRED -> List.of(EventType.CREATED, EventType.EXPIRED);
        };
    }
}

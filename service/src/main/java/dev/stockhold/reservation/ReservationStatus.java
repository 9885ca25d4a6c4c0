package dev.stockhold.reservation;

/**
 * HELD until exactly one of confirm, cancel or expire wins. A reservation with deferred fulfilment goes on from
 * CONFIRMED (its units committed) to PARTIALLY_FULFILLED and FULFILLED (no unit left committed) by fulfilments and
 * releases.
 */
public enum ReservationStatus {
    HELD,
    CONFIRMED,
    CANCELLED,
    EXPIRED,
    PARTIALLY_FULFILLED,
    FULFILLED;

    /** Confirmed: sold at once, or with deferred fulfilment committed and then fulfilled or released. */
    public boolean isConfirmed() {
        return this == CONFIRMED || this == PARTIALLY_FULFILLED || this == FULFILLED;
    }
}

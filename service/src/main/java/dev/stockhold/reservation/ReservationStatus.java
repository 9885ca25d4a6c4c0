package dev.stockhold.reservation;

/** HELD until exactly one of confirm, cancel or expire wins. */
public enum ReservationStatus {
    HELD,
    CONFIRMED,
    CANCELLED,
    EXPIRED
}

package dev.stockhold.inventory;

/** A record that may serve a line, in allocation order, with what a reservation may take from it ({@link Reservable}). */
public record Candidate(StockKey key, long available) {
}

package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

/**
 * One line of a confirmed reservation with deferred fulfilment: the units it confirmed, how many of them were fulfilled
 * and how many released; the rest ({@code quantity - fulfilled - released}) is still committed.
 */
public record ReservationCommitmentLine(String sku, int quantity, String location, int fulfilled, int released) {
}

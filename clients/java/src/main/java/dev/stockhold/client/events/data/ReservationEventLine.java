package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

/** One line of a reservation event: the sku, the units and the location that serves them. */
public record ReservationEventLine(String sku, int quantity, String location) {
}

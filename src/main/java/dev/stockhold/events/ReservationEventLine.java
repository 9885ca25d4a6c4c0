package dev.stockhold.events;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One line of a reservation event: the sku, the units and the location that serves them. */
@RegisterForReflection
public record ReservationEventLine(String sku, int quantity, String location) {
}

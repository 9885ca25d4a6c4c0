package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.util.List;

/**
 * A kit line of a reservation event: the kit's sku, the kit units held, and the component units that hold them (per
 * record, as in {@code lines}).
 */
public record ReservationKitLine(String sku, int quantity, List<ReservationEventLine> components) {
}

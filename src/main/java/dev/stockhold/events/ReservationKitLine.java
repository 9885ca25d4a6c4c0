package dev.stockhold.events;

import java.util.List;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A kit line of a reservation event: the kit's sku, the kit units held, and the component units that hold them (per
 * record, as in {@code lines}).
 */
@RegisterForReflection
public record ReservationKitLine(String sku, int quantity, List<ReservationEventLine> components) {
}

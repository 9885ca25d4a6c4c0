package dev.stockhold.events;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One line of a confirmed reservation with deferred fulfilment: the units it confirmed, how many of them were fulfilled
 * and how many released; the rest ({@code quantity - fulfilled - released}) is still committed.
 */
@RegisterForReflection
public record ReservationCommitmentLine(String sku, int quantity, String location, int fulfilled, int released) {
}

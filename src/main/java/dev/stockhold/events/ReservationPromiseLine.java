package dev.stockhold.events;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Backordered units of a reservation line: the sku, the units, the location they will arrive at, and when (if known). */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationPromiseLine(String sku, long quantity, String location, Instant promisedAt) {
}

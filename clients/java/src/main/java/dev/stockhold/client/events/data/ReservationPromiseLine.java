package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Backordered units of a reservation line: the sku, the units, the location they will arrive at, and when (if known). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationPromiseLine(String sku, long quantity, String location, Instant promisedAt) {
}

package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.unpromised.v1: a supply fell short and no other supply can take its units ({@code unpromised}); the reservation's hold runs from now unless it still waits for other units. Absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationUnpromisedV1(UUID id, String status, List<ReservationEventLine> lines, List<ReservationPromiseLine> unpromised,
        Instant expiresAt, Instant createdAt, String reference,
        Map<String, String> metadata) {
}

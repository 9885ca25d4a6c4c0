package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.allocated.v1: backordered units arrived and are held now. {@code lines} are the units the reservation holds after it, {@code allocated} those this receipt gave, {@code backordered} what it still waits for (absent: nothing; its hold runs until expiresAt). Absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationAllocatedV1(UUID id, String status, List<ReservationEventLine> lines, List<ReservationEventLine> allocated,
        List<ReservationPromiseLine> backordered, Instant expiresAt, Instant createdAt, String reference,
        Map<String, String> metadata) {
}

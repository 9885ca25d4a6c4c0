package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.released.v1: committed units of a reservation with deferred fulfilment that will not be fulfilled
 * are available again. {@code released} is what this release returned; {@code lines} every line as it left them. Status
 * as for reservation.fulfilled.v1. Absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationReleasedV1(UUID id, String status, List<ReservationCommitmentLine> lines, List<ReservationEventLine> released,
        Instant createdAt, String reference, Map<String, String> metadata) {
}

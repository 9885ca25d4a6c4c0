package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.fulfilled.v1: committed units of a reservation with deferred fulfilment left their locations.
 * {@code fulfilled} is what this fulfilment took; {@code lines} every line as it left them. Status PARTIALLY_FULFILLED
 * while units stay committed, FULFILLED when none do. Absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationFulfilledV1(UUID id, String status, List<ReservationCommitmentLine> lines, List<ReservationEventLine> fulfilled,
        Instant createdAt, String reference, Map<String, String> metadata) {
}
